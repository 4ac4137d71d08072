import { HumanMessage, type AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import type { SseEvent } from "../../net/sseEvents";
import type { FetchLike } from "../../ports/FetchLike";
import { startOpenAIServer, streamChunks, type OpenAIServer, type RecordedChatRequest, type ScriptedCompletion } from "../../../test/helpers/openAIServer";
import { coalesceTextDeltas, MAX_MERGED_TEXT_CHARACTERS } from "./coalesceTextDeltas";
import { eventStreamFetch } from "./unexpectedBody";

const TEXT = "Поиск по заметкам · 搜索笔记 · البحث في الملاحظات · ค้นหาบันทึก · 🔎🌱👩‍💻 · Cafe\u0301 e\u0301te\u0301";

/** The events a chat-completions server streams for this answer (the scripted test server's own). */
function eventsOf(scripted: ScriptedCompletion): SseEvent[] {
  const request = { index: 0, url: "/v1/chat/completions", body: { model: "m", messages: [] } } as unknown as RecordedChatRequest;
  return [...streamChunks(request, scripted).map((chunk) => ({ data: JSON.stringify(chunk) })), { data: "[DONE]" }];
}

const parsed = (event: SseEvent) => JSON.parse(event.data) as { id: string; choices: Array<{ index: number; delta: { content?: string; role?: string; tool_calls?: unknown }; finish_reason: string | null }> };
const isToolCallDelta = (event: SseEvent) => event.data !== "[DONE]" && parsed(event).choices.some((choice) => choice.delta.tool_calls !== undefined);
const contentOf = (events: SseEvent[]) => events.filter((event) => event.data !== "[DONE]").map((event) => parsed(event).choices.map((choice) => choice.delta.content ?? "").join("")).join("");

describe("coalesceTextDeltas", () => {
  it("merges a run of text deltas into one event, the text joined exactly (characters cut anywhere) and the rest as the first event had it", () => {
    const events = eventsOf({ text: TEXT, chunkSize: 3 });
    const merged = coalesceTextDeltas(events);
    // The role and text deltas, then the finish reason and [DONE], as they were.
    expect(merged).toHaveLength(3);
    expect(parsed(merged[0]!)).toEqual({ ...parsed(events[0]!), choices: [{ ...parsed(events[0]!).choices[0], delta: { role: "assistant", content: TEXT } }] });
    expect(merged.slice(1)).toEqual(events.slice(-2));
    expect(contentOf(merged)).toBe(contentOf(events));
  });

  it("puts at most MAX_MERGED_TEXT_CHARACTERS of text into one event, so the longest-answer check still sees the answer grow", () => {
    const long = TEXT.repeat(60);
    const merged = coalesceTextDeltas(eventsOf({ text: long, chunkSize: 4 }));
    const texts = merged.slice(0, -2).map((event) => parsed(event).choices[0]?.delta.content ?? "");
    expect(texts.join("")).toBe(long);
    expect(texts.length).toBe(Math.ceil(long.length / MAX_MERGED_TEXT_CHARACTERS));
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(MAX_MERGED_TEXT_CHARACTERS);
  });

  it("passes tool-call deltas through as they came, in order, and merges no text across them", () => {
    const events = eventsOf({ text: "Смотрю заметку.", chunkSize: 2, toolCalls: [{ name: "readNote", arguments: '{"notePath":"Заметки/План 計劃.md"}' }, { name: "getTagList", arguments: "{}" }], interleaveToolCalls: true });
    const toolEvents = events.filter(isToolCallDelta);
    const withTextBetween = [...events.slice(0, 3), toolEvents[0]!, ...eventsOf({ text: "ещё", chunkSize: 1 }).slice(1, 4), ...events.slice(3)];
    const merged = coalesceTextDeltas(withTextBetween);
    expect(merged.filter(isToolCallDelta)).toEqual([toolEvents[0], ...toolEvents]);
    expect(merged.map((event) => (isToolCallDelta(event) ? "call" : "other"))).toEqual(["other", "call", "other", ...toolEvents.map(() => "call"), "other", "other"]);
    expect(contentOf(merged)).toBe(contentOf(withTextBetween));
  });

  it("never merges a finish reason, usage, reasoning, a refusal, an error, a named event, [DONE] or what is not JSON", () => {
    const text = (content: string, extra: Record<string, unknown> = {}, delta: Record<string, unknown> = {}) => ({
      data: JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content, ...delta }, finish_reason: null, ...extra }], ...(extra.usage ? { usage: extra.usage } : {}) }),
    });
    const others: SseEvent[] = [
      text("конец", { finish_reason: "stop" }),
      { data: JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: "x" }, finish_reason: null }], usage: { completion_tokens: 1 } }) },
      text("", {}, { reasoning_content: "思考" }),
      text("", {}, { refusal: "нет" }),
      text("a", { logprobs: { content: [] } }),
      { data: JSON.stringify({ error: { message: "перегружен" } }) },
      { event: "message", data: text("b").data },
      { data: "[DONE]" },
      { data: "{not json" },
    ];
    for (const other of others) {
      const events = [text("один "), text("два "), other, text("три "), text("четыре")];
      const merged = coalesceTextDeltas(events);
      expect(merged).toHaveLength(3);
      expect(merged[1]).toBe(other);
      expect(parsed(merged[0]!).choices[0]?.delta.content).toBe("один два ");
      expect(parsed(merged[2]!).choices[0]?.delta.content).toBe("три четыре");
    }
  });

  it("reads the text as JSON whatever the server escapes: \\u escapes, quotes and a \"content\" key inside the text, spaces after colons", () => {
    // As a server that escapes everything beyond ASCII writes it (Python's json.dumps), with spaces.
    const asciiOnly = (text: string) => `{"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": ${JSON.stringify(text).replace(/[\u007f-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)}}, "finish_reason": null}]}`;
    const pieces = ["Он сказал: \"content\": \"x\" ", "и ушёл 🚪", "\\ конец\n", '{"content":"подделка"}'];
    const merged = coalesceTextDeltas(pieces.map((piece) => ({ data: asciiOnly(piece) })));
    expect(merged).toHaveLength(1);
    expect(parsed(merged[0]!).choices[0]?.delta.content).toBe(pieces.join(""));
  });

  it("keeps apart the text of another choice, another envelope or a new role", () => {
    const chunk = (choice: number, content: string, id = "c", role?: string) => ({ data: JSON.stringify({ id, object: "chat.completion.chunk", choices: [{ index: choice, delta: { ...(role ? { role } : {}), content }, finish_reason: null }] }) });
    expect(coalesceTextDeltas([chunk(0, "a"), chunk(1, "b"), chunk(0, "c")])).toHaveLength(3);
    expect(coalesceTextDeltas([chunk(0, "a"), chunk(0, "b", "other-id")])).toHaveLength(2);
    expect(coalesceTextDeltas([chunk(0, "a", "c", "assistant"), chunk(0, "b", "c", "tool")])).toHaveLength(2);
    expect(coalesceTextDeltas([chunk(0, "a", "c", "assistant"), chunk(0, "b"), chunk(0, "c")])).toHaveLength(1);
  });
});

describe("the OpenAI client over eventStreamFetch", () => {
  let server: OpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function streamed(fetch: FetchLike): Promise<AIMessageChunk[]> {
    const model = new ChatOpenAI({ model: "m", apiKey: "k", streaming: true, maxRetries: 0, configuration: { baseURL: server!.baseUrl, fetch } });
    const bound = model.bindTools([{ type: "function", function: { name: "readNote", parameters: { type: "object", properties: { notePath: { type: "string" } } } } }]);
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await bound.stream([new HumanMessage("Что в плане?")])) chunks.push(chunk);
    return chunks;
  }

  it("gets an answer written in one go in far fewer chunks, with the same text and the very same tool-call deltas", async () => {
    const answer: ScriptedCompletion = { text: TEXT.repeat(20), chunkSize: 2, toolCalls: [{ id: "call_plan", name: "readNote", arguments: '{"notePath":"Заметки/План 計劃 🌱.md"}' }, { id: "call_daily", name: "readNote", arguments: '{"notePath":"Daily/2026-12-01.md"}' }], interleaveToolCalls: true };
    server = await startOpenAIServer([answer, answer]);
    const plain = await streamed(globalThis.fetch);
    const coalesced = await streamed(eventStreamFetch(globalThis.fetch));
    const text = (chunks: AIMessageChunk[]) => chunks.map((chunk) => (typeof chunk.content === "string" ? chunk.content : "")).join("");
    const toolCallDeltas = (chunks: AIMessageChunk[]) => chunks.flatMap((chunk) => chunk.tool_call_chunks ?? []);
    expect(text(coalesced)).toBe(TEXT.repeat(20));
    expect(text(coalesced)).toBe(text(plain));
    expect(toolCallDeltas(coalesced)).toEqual(toolCallDeltas(plain));
    expect(toolCallDeltas(coalesced).length).toBeGreaterThan(10);
    const whole = (chunks: AIMessageChunk[]) => chunks.reduce((sum, chunk) => sum.concat(chunk));
    expect(whole(coalesced).tool_calls).toEqual(whole(plain).tool_calls);
    expect(whole(coalesced).tool_calls?.map((call) => call.args)).toEqual([{ notePath: "Заметки/План 計劃 🌱.md" }, { notePath: "Daily/2026-12-01.md" }]);
    // The text came in far fewer chunks than its deltas: everything but the tool-call deltas merged per read.
    const textChunks = (chunks: AIMessageChunk[]) => chunks.filter((chunk) => typeof chunk.content === "string" && chunk.content !== "").length;
    expect(textChunks(plain)).toBeGreaterThan(500);
    expect(textChunks(coalesced)).toBeLessThan(textChunks(plain) / 10);
  });
});

import { ChatOpenAI } from "@langchain/openai";
import { AIMessageChunk } from "@langchain/core/messages";
import { startOpenAIServer, type OpenAIServer } from "./openAIServer";

function model(server: OpenAIServer, streaming = true): ChatOpenAI {
  return new ChatOpenAI({ model: "test-model", apiKey: "sk-test", streaming, maxRetries: 0, configuration: { baseURL: server.baseUrl } });
}

async function collect(chat: ChatOpenAI, prompt: string): Promise<AIMessageChunk> {
  let whole: AIMessageChunk | undefined;
  for await (const chunk of await chat.stream(prompt)) whole = whole ? whole.concat(chunk) : chunk;
  if (!whole) throw new Error("no chunks");
  return whole;
}

/** The text of a streamed chunk (empty for chunks that carry none). */
function textOf(chunk: AIMessageChunk | undefined): string {
  return typeof chunk?.content === "string" ? chunk.content : "";
}

describe("openAIServer", () => {
  let server: OpenAIServer;
  afterEach(async () => server.close());

  it("streams text in deltas that LangChain assembles, and records the request body", async () => {
    server = await startOpenAIServer([{ text: "Hello from the test server", chunkSize: 3 }]);
    const message = await collect(model(server), "Say hello");
    expect(message.content).toBe("Hello from the test server");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body.stream).toBe(true);
    expect(server.requests[0]?.body.messages.at(-1)).toMatchObject({ role: "user", content: "Say hello" });
  });

  it("splits several tool calls into many argument deltas that assemble into whole calls", async () => {
    const first = JSON.stringify({ notePath: "Projects/Alpha plan.md" });
    const second = JSON.stringify({ query: "budget", limit: 5 });
    server = await startOpenAIServer([
      { toolCalls: [{ name: "readNote", arguments: first }, { name: "localSearch", arguments: second }], argumentChunkSize: 2, interleaveToolCalls: true },
    ]);
    const message = await collect(model(server), "go");
    expect(message.tool_calls?.map((call) => [call.name, call.args])).toEqual([
      ["readNote", { notePath: "Projects/Alpha plan.md" }],
      ["localSearch", { query: "budget", limit: 5 }],
    ]);
    expect(message.tool_calls?.map((call) => call.id)).toEqual(["call_0_0", "call_0_1"]);
  });

  it("answers unstreamed requests with one JSON completion", async () => {
    server = await startOpenAIServer([{ text: "whole answer" }]);
    const message = await model(server, false).invoke("hi");
    expect(message.content).toBe("whole answer");
    expect(server.requests[0]?.body.stream).toBeFalsy();
  });

  it("answers a scripted status with an OpenAI error body", async () => {
    server = await startOpenAIServer([{ status: 401, message: "Incorrect API key provided" }]);
    await expect(collect(model(server), "hi")).rejects.toThrow(/Incorrect API key/);
  });

  it("refuses unknown models with 404 model_not_found", async () => {
    server = await startOpenAIServer([{ text: "unused" }], { knownModels: ["other-model"] });
    await expect(collect(model(server), "hi")).rejects.toThrow(/does not exist/);
  });

  it("cuts a stream off after the scripted number of chunks", async () => {
    server = await startOpenAIServer([{ text: "abcdefghijklmnop", chunkSize: 2, cutAfterChunks: 3 }]);
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of await model(server).stream("hi")) received.push(typeof chunk.content === "string" ? chunk.content : "");
      })(),
    ).rejects.toThrow();
    expect(received.join("")).toBe("abcd");
  });

  it("holds a stream after pauseAfterChunks until resumeWhen settles, then sends the rest", async () => {
    let open!: () => void;
    const resumeWhen = new Promise<void>((resolve) => (open = resolve));
    server = await startOpenAIServer([{ text: "abcdefgh", chunkSize: 2, pauseAfterChunks: 3, resumeWhen }]);
    const seen: string[] = [];
    const stream = await model(server).stream("go");
    const iterator = stream[Symbol.asyncIterator]();
    // Chunk 1 is the role-only one, so 3 chunks carry "ab" and "cd"; nothing more until the gate opens.
    while (seen.join("") !== "abcd") seen.push(textOf((await iterator.next()).value));
    const next = iterator.next();
    const raced = await Promise.race([next.then(() => "more came"), new Promise((resolve) => setTimeout(() => resolve("held"), 200))]);
    expect(raced).toBe("held");
    open();
    for (let step = await next; !step.done; step = await iterator.next()) seen.push(textOf(step.value));
    expect(seen.join("")).toBe("abcdefgh");
  });

  it("waits chunkDelayMs between chunks and still sends the whole answer", async () => {
    server = await startOpenAIServer([{ text: "slow but whole", chunkSize: 5, chunkDelayMs: 5 }]);
    const message = await collect(model(server), "go");
    expect(message.content).toBe("slow but whole");
  });

  it("fails loudly when the script runs out", async () => {
    server = await startOpenAIServer([]);
    await expect(collect(model(server), "hi")).rejects.toThrow(/script exhausted/);
  });
});

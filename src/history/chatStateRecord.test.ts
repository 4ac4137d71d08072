import { folderChip, noteChip, selectionChip, tagChip } from "../chat/chipArtifacts";
import type { AssistantMessage, AssistantPart, ChatMessage, ToolCallPart, UserMessage } from "../chat/chatTypes";
import { parseChat, serializeChat } from "./chatNoteFormat";
import { freshBase, MAX_SAVED_RESULT_CHARS, messagesFromRecord, recordFromState } from "./chatStateRecord";

const SENT = Date.UTC(2026, 11, 3, 14, 5, 12, 345);
const NOW = Date.UTC(2026, 11, 3, 14, 9, 0, 999);

function question(text: string, chips: UserMessage["chips"] = []): UserMessage {
  return { id: "u1", role: "user", text, chips, artifacts: [], sentAt: SENT };
}

function answer(parts: readonly AssistantPart[], more: Partial<AssistantMessage> = {}): AssistantMessage {
  return { id: "a1", role: "assistant", parts, status: "done", mode: "agent", model: "gpt-4.1", startedAt: SENT + 2000, ...more };
}

function toolCall(more: Partial<ToolCallPart> = {}): ToolCallPart {
  return { type: "tool-call", id: "call_1", toolName: "readNote", toolId: "readNote", args: { path: "A.md" }, status: "ok", startedAt: SENT, ...more };
}

/** The chat's messages saved into a note and loaded from it, as the history does. */
function throughNote(messages: readonly ChatMessage[]): ChatMessage[] {
  const record = recordFromState({ chatId: "chat-1", mode: "agent", model: "gpt-4.1", messages }, freshBase(SENT), NOW);
  return messagesFromRecord(parseChat(serializeChat(record)));
}

function answerOf(messages: readonly ChatMessage[], index = 0): AssistantMessage {
  const found = messages.filter((message): message is AssistantMessage => message.role === "assistant")[index];
  if (!found) throw new Error(`no answer ${index}`);
  return found;
}

describe("recordFromState", () => {
  it("stamps the chat and its times to the second, and keeps the note's base", () => {
    const base = { created: "2026-01-02T03:04:05Z", tags: ["copilot-chat", "trip"], extraFrontmatter: "cssclasses: wide", preamble: "Kept." };
    const record = recordFromState({ chatId: "chat-1", mode: "vault-qa", model: "llama3", messages: [question("Hi")] }, base, NOW);
    expect(record).toMatchObject({ id: "chat-1", mode: "vault-qa", model: "llama3", updated: "2026-12-03T14:09:00Z", ...base });
    expect(record.messages[0]).toEqual({ role: "user", time: "2026-12-03T14:05:12Z", text: "Hi", context: [] });
  });
});

describe("a chat saved into its note and loaded again", () => {
  it("keeps a question's text and chips; a selection chip keeps its lines and loses its text", () => {
    const chips = [noteChip("Travel/Lisbon.md"), folderChip("Travel"), tagChip("#trip/2026"), selectionChip("Travel/Plan.md", "Day 1: trams", 3, 9), noteChip("Odd #1.md")];
    const [loaded] = throughNote([question("Plan my trip.\n## You said", chips)]);
    expect(loaded).toEqual({
      id: expect.any(String) as string,
      role: "user",
      text: "Plan my trip.\n## You said",
      chips: [chips[0], chips[1], chips[2], selectionChip("Travel/Plan.md", "", 3, 9), chips[4]],
      artifacts: [],
      sentAt: Date.UTC(2026, 11, 3, 14, 5, 12),
    });
  });

  it("keeps text and tool calls in order: arguments as the same JSON, the id when it differs from the name", () => {
    const args = { path: "Travel/Lisbon.md", lines: [1, 2], deep: { quote: "```", ok: true, none: null } };
    const parts: AssistantPart[] = [
      { type: "text", id: "text-1", text: "Reading." },
      toolCall({ args, toolId: "mcp:files/read", durationMs: 41.6, resultText: "# Lisbon" }),
      toolCall({ id: "call_2", toolName: "search", toolId: "search", args: undefined, status: "invalid-arguments" }),
      { type: "text", id: "text-2", text: "Done." },
    ];
    const loaded = answerOf(throughNote([question("Go"), answer(parts)]));
    expect(loaded.parts).toEqual([
      { type: "text", id: "text-1", text: "Reading." },
      { type: "tool-call", id: expect.any(String) as string, toolName: "readNote", toolId: "mcp:files/read", args, status: "ok", startedAt: SENT - 345 + 2000, durationMs: 42, resultText: "# Lisbon" },
      { type: "tool-call", id: expect.any(String) as string, toolName: "search", toolId: "search", args: {}, status: "invalid-arguments", startedAt: SENT - 345 + 2000 },
      { type: "text", id: "text-2", text: "Done." },
    ]);
  });

  it("caps a long tool result and says how much was left out; a result at the cap is kept whole", () => {
    const long = "x".repeat(MAX_SAVED_RESULT_CHARS + 123);
    const atCap = "y".repeat(MAX_SAVED_RESULT_CHARS);
    const loaded = answerOf(throughNote([answer([toolCall({ resultText: long }), toolCall({ id: "call_2", resultText: atCap })])]));
    const [first, second] = loaded.parts as ToolCallPart[];
    expect(first?.resultText).toBe(`${"x".repeat(MAX_SAVED_RESULT_CHARS)}\n… (123 more characters not kept in the note)`);
    expect(second?.resultText).toBe(atCap);
  });

  it("ends a call that was running when saved as aborted", () => {
    const loaded = answerOf(throughNote([answer([toolCall({ status: "running" })], { status: "streaming" })]));
    expect((loaded.parts[0] as ToolCallPart).status).toBe("aborted");
  });

  it.each([
    ["done", "done", undefined],
    ["stopped", "stopped", undefined],
    ["streaming", "stopped", undefined],
    ["error", "error", { kind: "failed", message: "Rate limited." }],
  ] as const)("an answer %s when saved comes back %s", (saved, loadedStatus, error) => {
    const errorPart = saved === "error" ? { error: { kind: "rate-limited" as const, message: "Rate limited." } } : {};
    const loaded = answerOf(throughNote([question("Q"), answer([{ type: "text", id: "text-1", text: "Part" }], { status: saved, ...errorPart })]));
    expect(loaded.status).toBe(loadedStatus);
    expect(loaded.error).toEqual(error);
  });

  it("notes the saved word for each status: streaming as partial, error as failed", () => {
    const record = recordFromState(
      { chatId: "c", mode: "chat", model: "m", messages: [answer([], { status: "streaming" }), answer([], { status: "error", error: { kind: "failed", message: "No." } })] },
      freshBase(SENT),
      NOW,
    );
    expect(record.messages.map((message) => (message.role === "assistant" ? message.status : null))).toEqual(["partial", "failed"]);
    expect(serializeChat(record)).toContain("· partial\n");
  });

  it("gives a failed answer saved without a reason a general one", () => {
    const loaded = answerOf(throughNote([answer([], { status: "error" })]));
    expect(loaded.error).toEqual({ kind: "failed", message: "The answer failed." });
  });

  it("keeps earlier versions of an exchange, oldest first", () => {
    const first = [question("First try"), answer([{ type: "text", id: "text-1", text: "Old answer" }], { mode: "chat", model: "small" })];
    const second = [question("Second try"), answer([], { status: "error", error: { kind: "failed", message: "Timed out." } })];
    const loaded = answerOf(throughNote([question("Now"), answer([{ type: "text", id: "text-1", text: "New answer" }], { earlier: [first, second] })]));
    const versions = loaded.earlier ?? [];
    expect(versions).toHaveLength(2);
    expect(versions.map((version) => version.map((message) => (message.role === "user" ? message.text : message.parts.map((part) => (part.type === "text" ? part.text : part.toolName)).join("|"))))).toEqual([
      ["First try", "Old answer"],
      ["Second try", ""],
    ]);
    expect(answerOf(versions[0] ?? [])).toMatchObject({ mode: "chat", model: "small", status: "done" });
    expect(answerOf(versions[1] ?? [])).toMatchObject({ status: "error", error: { kind: "failed", message: "Timed out." } });
  });

  it("keeps the paths of a vault-QA answer's sources", () => {
    const sources = [
      { path: "Notes/Alpha.md", title: "Alpha", content: "long passage", score: 0.9, heading: "Intro" },
      { path: "x|y.md", title: "x|y", content: "", score: 0.1 },
    ];
    const loaded = answerOf(throughNote([answer([{ type: "text", id: "text-1", text: "From your notes." }], { mode: "vault-qa", sources })]));
    expect(loaded.sources).toEqual([
      { path: "Notes/Alpha.md", title: "Alpha", content: "", score: 0 },
      { path: "x|y.md", title: "x|y", content: "", score: 0 },
    ]);
  });
});

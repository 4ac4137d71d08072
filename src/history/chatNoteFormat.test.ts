import { specExample } from "../../test/helpers/commonmarkExamples";
import type { AssistantMessage, ChatState, UserMessage } from "../chat/chatTypes";
import type { ToolFailure } from "../errorMessage";
import { ChatNoteParseError, parseChat, serializeChat } from "./chatNoteFormat";
import type { ChatRecord, RecordMessage } from "./chatRecord";
import { freshBase, MAX_SAVED_FAILURE_VALUE_CHARS, MAX_SAVED_RESULT_CHARS, messagesFromRecord, recordFromState } from "./chatStateRecord";

const CHAT: ChatRecord = {
  id: "chat-1",
  mode: "agent",
  model: "llama3:8b",
  created: "2026-12-03T14:05:12Z",
  updated: "2026-12-03T14:06:40Z",
  tags: ["copilot-chat"],
  extraFrontmatter: "",
  preamble: "",
  messages: [
    { role: "user", time: "2026-12-03T14:05:12Z", text: "What did I plan?\n## You", context: [{ kind: "note", path: "Garden/Plan.md" }, { kind: "selection", path: "Garden/Plan.md", fromLine: 3, toLine: 9 }, { kind: "folder", path: "Projects" }, { kind: "tag", tag: "#garden" }] },
    {
      role: "assistant",
      time: "2026-12-03T14:05:13Z",
      mode: "agent",
      model: "llama3:8b",
      status: "stopped",
      parts: [
        { type: "text", text: "Let me look." },
        { type: "tool", name: "readNote", args: '{\n  "notePath": "Garden/Plan.md"\n}', status: "ok", durationMs: 12, result: "Prune in ```March```." },
        { type: "text", text: "Prune in March." },
      ],
      earlier: [],
    },
  ],
};

/** The exact bytes of CHAT's note: a change of the format shows here first. */
const GOLDEN = `---
chat-id: chat-1
mode: agent
model: llama3:8b
created: 2026-12-03T14:05:12Z
updated: 2026-12-03T14:06:40Z
tags:
  - copilot-chat
---

## You · 2026-12-03T14:05:12Z

What did I plan?
\\## You

> [!context] Context
> - [[Garden/Plan]]
> - [[Garden/Plan]] lines 3–9
> - folder: Projects/
> - tag: \`#garden\`

## Copilot · 2026-12-03T14:05:13Z · agent · llama3:8b · stopped

Let me look.

> [!tool]- readNote · ok · 12 ms
> \`\`\`json
> {
>   "notePath": "Garden/Plan.md"
> }
> \`\`\`
> \`\`\`\`text
> Prune in \`\`\`March\`\`\`.
> \`\`\`\`

Prune in March.
`;

describe("chatNoteFormat", () => {
  it("writes a chat as this note, and reads the note back as the chat", () => {
    expect(serializeChat(CHAT)).toBe(GOLDEN);
    expect(parseChat(GOLDEN)).toEqual(CHAT);
  });

  it("reads a note saved with CRLF line endings as its LF twin", () => {
    expect(parseChat(GOLDEN.replace(/\n/g, "\r\n"))).toEqual(CHAT);
  });

  it("reads a note that begins with a byte-order mark as a chat, and writes the mark back", () => {
    const withMark = `\uFEFF${GOLDEN}`;
    const record = parseChat(withMark);
    expect(record).toEqual({ ...CHAT, bom: true });
    expect(serializeChat(record)).toBe(withMark);
    // Carried through the chat's state: a later write of the chat keeps the mark.
    const state = { chatId: record.id, mode: record.mode, model: record.model, messages: messagesFromRecord(record) };
    expect(serializeChat(recordFromState(state, { ...freshBase(0), bom: true }, 0)).startsWith("\uFEFF---\n")).toBe(true);
  });

  it("reads a note written by hand, taking the chat's defaults for what its headings leave out", () => {
    const read = parseChat("---\nchat-id: mine\nmode: chat\nmodel: m\nupdated: 2026-01-01T00:00:00Z\n---\nMy notes on this chat.\n\n## You\n\nHello\n\n## Copilot\n\nHi there\n");
    expect(read.preamble).toBe("My notes on this chat.");
    expect(read.messages).toEqual([
      { role: "user", time: "2026-01-01T00:00:00Z", text: "Hello", context: [] },
      { role: "assistant", time: "2026-01-01T00:00:00Z", mode: "chat", model: "m", status: "done", parts: [{ type: "text", text: "Hi there" }], earlier: [] },
    ]);
  });

  it("keeps what the user wrote for a prompt's question in its heading, the filled text as its text; a note without it reads as before", () => {
    const filled = "Summarize the note [[Deep Work]] (attached above).";
    const chat: ChatRecord = {
      ...CHAT,
      messages: [{ role: "user", time: "2026-12-03T14:05:12Z", text: filled, shown: "/Summarize · Глубокая работа · 深い", context: [{ kind: "note", path: "Deep Work.md" }] }],
    };
    const note = serializeChat(chat);
    expect(note).toContain(`## You · 2026-12-03T14:05:12Z · /Summarize · Глубокая работа · 深い\n\n${filled}\n`);
    expect(parseChat(note)).toEqual(chat);
    // A note written before the heading held it: the question is its text alone, as it always was.
    const older = parseChat(note.replace(" · /Summarize · Глубокая работа · 深い", ""));
    expect(older.messages[0]).toEqual({ role: "user", time: "2026-12-03T14:05:12Z", text: filled, context: [{ kind: "note", path: "Deep Work.md" }] });
    // The heading holds one line: a shown text with line breaks is written on one.
    const broken = serializeChat({ ...chat, messages: [{ ...chat.messages[0]!, shown: " Make it\nshorter\r\n " } as RecordMessage] });
    expect(parseChat(broken).messages[0]).toMatchObject({ shown: "Make it shorter", text: filled });
  });

  it("keeps a rewrite shown as its edit ('rewrite' after the model), so a chat opened again shows it the same way; a model of that name stays a model", () => {
    const answer = CHAT.messages[1] as Extract<RecordMessage, { role: "assistant" }>;
    const chat: ChatRecord = { ...CHAT, messages: [CHAT.messages[0]!, { ...answer, model: "qwen · 2.5", rewrite: true }] };
    const note = serializeChat(chat);
    expect(note).toContain("## Copilot · 2026-12-03T14:05:13Z · agent · qwen · 2.5 · rewrite · stopped\n");
    expect(parseChat(note)).toEqual(chat);
    // The chat's state keeps it both ways.
    const messages = messagesFromRecord(parseChat(note));
    expect((messages[1] as AssistantMessage).rewrite).toBe(true);
    const state = { chatId: "chat-1", mode: "agent", model: "qwen · 2.5", messages } as const;
    expect(recordFromState(state, freshBase(0), 0).messages[1]).toMatchObject({ rewrite: true });
    // A model named "rewrite" is the model, not the mark.
    const named = parseChat(serializeChat({ ...CHAT, messages: [CHAT.messages[0]!, { ...answer, model: "rewrite", status: "done" }] }));
    expect(named.messages[1]).toMatchObject({ model: "rewrite" });
    expect(named.messages[1]).not.toHaveProperty("rewrite");
  });

  describe("a failed tool call's kind", () => {
    const answer = CHAT.messages[1] as Extract<RecordMessage, { role: "assistant" }>;
    /** Values in many scripts, and the characters that could break the line: "%%", "%", quotes, braces, a line break, NFD. */
    const FAILURES: ToolFailure[] = [
      { kind: "note-not-found", values: { note: "Заметки/Нет такой 笔记 🌱.md" } },
      { kind: "chunk-past-end", values: { path: "ملاحظات/طويلة.md", count: 3 } },
      { kind: "mcp-error", values: { detail: "ผิดพลาด %% 100% } {\"x\": 1}\nдругая строка \u0301" } },
      { kind: "time-not-understood", values: { expression: "Chai\u0306 %%failure: stopped {}%%" } },
      { kind: "stopped", values: {} },
    ];
    const withFailures = (failures: readonly ToolFailure[]): ChatRecord => ({
      ...CHAT,
      messages: [
        CHAT.messages[0]!,
        {
          ...answer,
          parts: failures.map((failure, index) => ({ type: "tool" as const, name: "readNote", ...(index % 2 === 0 ? { toolId: `tool-${index}` } : {}), args: "{}", status: "error" as const, durationMs: index, result: `Tool "readNote" failed: sentence ${index}`, failure })),
        },
      ],
    });

    it("round-trips in the tool callout, as an Obsidian comment after the tool id, whatever the values hold", () => {
      const chat = withFailures(FAILURES);
      const note = serializeChat(chat);
      expect(note).toContain('> [!tool]- readNote · error · 0 ms\n> Tool id: tool-0\n> %%failure: note-not-found {"note":"Заметки/Нет такой 笔记 🌱.md"}%%\n> ```json\n');
      expect(note).toContain('> [!tool]- readNote · error · 1 ms\n> %%failure: chunk-past-end {"path":"ملاحظات/طويلة.md","count":3}%%\n');
      // No value can end the comment early or break the line: "%" is written as its JSON escape.
      const lines = note.split("\n").filter((line) => line.startsWith("> %%failure: "));
      expect(lines).toHaveLength(FAILURES.length);
      for (const line of lines) expect(line.slice("> %%".length, -"%%".length)).not.toContain("%");
      expect(parseChat(note)).toEqual(chat);
      expect(serializeChat(parseChat(note))).toBe(note);
      // Through the chat's state and back: a chat reopened and saved again keeps them.
      const state = { chatId: chat.id, mode: chat.mode, model: chat.model, messages: messagesFromRecord(parseChat(note)) };
      expect((state.messages[1] as AssistantMessage).parts.map((part) => (part.type === "tool-call" ? part.failure : undefined))).toEqual(FAILURES);
      expect(serializeChat(recordFromState(state, freshBase(0), 0))).toContain(lines[2]!);
    });

    it("an older note without the line reads exactly as before, and one naming a kind this version does not know reads as if it had none", () => {
      const chat = withFailures(FAILURES.slice(0, 2));
      const note = serializeChat(chat);
      const older = note.replace(/^> %%failure: .*\n/gm, "");
      expect(older).not.toContain("%%");
      const olderRecord = parseChat(older);
      const parts = (olderRecord.messages[1] as typeof answer).parts;
      expect(parts.map((part) => ("failure" in part ? part.failure : "none"))).toEqual(["none", "none"]);
      // Everything else the calls had is there as before.
      expect(parts).toEqual((chat.messages[1] as typeof answer).parts.map((part) => JSON.parse(JSON.stringify({ ...part, failure: undefined })) as typeof part));
      expect(serializeChat(olderRecord)).toBe(older);
      for (const line of ['> %%failure: from-a-later-version {"x":1}%%', "> %%failure: note-not-found not json%%", '> %%failure: note-not-found {"note":{"deep":1}}%%']) {
        const edited = parseChat(note.replace(/^> %%failure: note-not-found .*$/m, line));
        expect((edited.messages[1] as typeof answer).parts[0]).not.toHaveProperty("failure");
        expect((edited.messages[1] as typeof answer).parts[1]).toMatchObject({ failure: FAILURES[1] });
      }
    });
  });

  it("keeps paths that hold a line or paragraph separator (U+2028, U+2029): an undone edit's note in a tool callout's title, and a question's folder, image, pasted image and note", () => {
    const answer = CHAT.messages[1] as Extract<RecordMessage, { role: "assistant" }>;
    const question = CHAT.messages[0] as Extract<RecordMessage, { role: "user" }>;
    const chat: ChatRecord = {
      ...CHAT,
      messages: [
        {
          ...question,
          context: [
            { kind: "folder", path: "Папка\u2028文件夹" },
            { kind: "image", path: "صور/صورة\u2029🌱.png" },
            { kind: "pasted-image", name: "ภาพ\u2028วาง.png" },
            { kind: "note", path: "Заметки/#тег\u2028笔记.md" },
          ],
        },
        { ...answer, parts: [{ type: "tool", name: "replaceInFile", args: "{}", status: "ok", durationMs: 4, undone: "Заметки/Новая\u2028строка 笔记.md" }, { type: "text", text: "Готово ✅" }] },
      ],
    };
    const note = serializeChat(chat);
    expect(parseChat(note)).toEqual(chat);
    expect(serializeChat(parseChat(note))).toBe(note);
  });

  it("keeps an answer whose model name holds a line or paragraph separator (U+2028, U+2029) in its heading", () => {
    const answer = CHAT.messages[1] as Extract<RecordMessage, { role: "assistant" }>;
    const chat: ChatRecord = { ...CHAT, messages: [CHAT.messages[0]!, { ...answer, model: "модель\u2028模型\u2029🌱" }] };
    const note = serializeChat(chat);
    expect(parseChat(note)).toEqual(chat);
    expect(serializeChat(parseChat(note))).toBe(note);
  });

  it("keeps a failure whose values hold a line or paragraph separator (U+2028, U+2029), which JSON leaves as they are", () => {
    const answer = CHAT.messages[1] as Extract<RecordMessage, { role: "assistant" }>;
    const failure: ToolFailure = { kind: "mcp-error", values: { detail: "خطأ\u2028第二行\u2029วรรค 🌱" } };
    const chat: ChatRecord = {
      ...CHAT,
      messages: [CHAT.messages[0]!, { ...answer, parts: [{ type: "tool", name: "fetch", toolId: "mcp__сервер__fetch", args: "{}", status: "error", result: "The tool reported an error: خطأ", failure }] }],
    };
    const note = serializeChat(chat);
    expect(parseChat(note)).toEqual(chat);
    expect(serializeChat(parseChat(note))).toBe(note);
  });

  it("reads a tool call's blocks as any note's code: tildes, indented fences, a closer with trailing spaces, the spec's example 125 inside", () => {
    const result = specExample(125).replace("aaa", "Результат: ~~~ внутри").replace(/\n$/, "").split("\n");
    const note = [
      "---\nchat-id: c\nmode: agent\nmodel: m\n---\n\n## You\n\nНайди заметку\n\n## Copilot\n",
      "> [!tool]- readNote · ok",
      ">   ```json",
      "> {\"notePath\": \"Сад/План.md\"}",
      ">   ```   ",
      ...result.map((line, index) => `> ${index === 0 ? `${line}text` : line}`),
      "",
    ].join("\n");
    const answer = parseChat(note).messages[1];
    expect(answer?.role === "assistant" && answer.parts[0]).toMatchObject({ type: "tool", name: "readNote", args: '{"notePath": "Сад/План.md"}', result: "Результат: ~~~ внутри\n~~~" });
  });

  it.each([
    ["no frontmatter", "## You\n\nhi\n", "it has no frontmatter", { code: "no-frontmatter" }],
    ["an unclosed frontmatter", "---\nchat-id: a\n", "its frontmatter is not closed", { code: "frontmatter-not-closed" }],
    ["no chat id", "---\nmode: chat\n---\n", "its frontmatter has no chat-id", { code: "no-chat-id" }],
    ["an unknown mode", "---\nchat-id: a\nmode: петь\n---\n", 'its mode "петь" is not one of chat, vault-qa, agent', { code: "mode-invalid", mode: "петь", modes: "chat, vault-qa, agent" }],
    ["a property that is not YAML", "---\nchat-id: a\nmode: chat\ntags: [a\n---\n", 'its property "tags" is not valid YAML', { code: "property-not-yaml", key: "tags", detail: expect.any(String) }],
  ])("refuses a note with %s, naming the reason's case", (_case, text, reason, problem) => {
    expect(() => parseChat(text)).toThrow(ChatNoteParseError);
    expect(() => parseChat(text)).toThrow(reason);
    expect(() => parseChat(text)).toThrow(expect.objectContaining({ reason: problem }));
  });
});

describe("chatStateRecord", () => {
  const question: UserMessage = {
    id: "u1",
    role: "user",
    text: "Q",
    chips: [{ id: "selection:A.md#L2-L3", kind: "selection", label: "A (lines 2–3)", target: "A.md", selection: { text: "two\nthree", fromLine: 2, toLine: 3 } }],
    artifacts: [],
    sentAt: Date.UTC(2026, 11, 3, 10, 0, 0, 750),
  };
  const answer = (status: AssistantMessage["status"]): AssistantMessage => ({
    id: "a1",
    role: "assistant",
    status,
    mode: "agent",
    model: "m",
    startedAt: Date.UTC(2026, 11, 3, 10, 0, 1),
    parts: [
      { type: "tool-call", id: "c1", toolName: "localSearch", toolId: "localSearch", args: { query: "x", n: [1, 2] }, status: status === "streaming" ? "running" : "ok", startedAt: 0, durationMs: 3.6, resultText: "r".repeat(MAX_SAVED_RESULT_CHARS + 10) },
      { type: "text", id: "text-1", text: "A" },
    ],
    ...(status === "error" ? { error: { kind: "failed" as const, message: "It broke." } } : {}),
  });
  const state = (status: AssistantMessage["status"]): ChatState => ({ chatId: "c", messages: [question, answer(status)], mode: "agent", model: "m", project: null, running: false, activeNote: null, chips: [], approvals: [], announcement: null });

  it("keeps text, context and tool calls (results capped, arguments as JSON), times to the second", () => {
    const record = recordFromState(state("done"), freshBase(0), Date.UTC(2026, 11, 3, 11));
    expect(record.messages[0]).toEqual({ role: "user", time: "2026-12-03T10:00:00Z", text: "Q", context: [{ kind: "selection", path: "A.md", fromLine: 2, toLine: 3 }] });
    const tool = record.messages[1]?.role === "assistant" ? record.messages[1].parts[0] : undefined;
    expect(tool).toMatchObject({ type: "tool", name: "localSearch", status: "ok", durationMs: 4 });
    // The registry id is written only when it differs from the name.
    expect(tool?.type === "tool" ? tool.toolId : "absent").toBeUndefined();
    expect(tool?.type === "tool" && tool.result).toBe(`${"r".repeat(MAX_SAVED_RESULT_CHARS)}\n… (10 more characters not kept in the note)`);
    const [user, back] = messagesFromRecord(record);
    // A selection comes back with its lines; its text is read again from the note when the chat goes on.
    expect(user).toMatchObject({ role: "user", text: "Q", chips: [{ id: "selection:A.md#L2-L3", selection: { text: "", fromLine: 2, toLine: 3 } }] });
    expect(back).toMatchObject({ role: "assistant", status: "done", parts: [{ type: "tool-call", args: { query: "x", n: [1, 2] }, toolId: "localSearch" }, { type: "text", text: "A" }] });
  });

  it("caps a failure's values as it caps the result: a server's one long line does not grow the note past the cap", () => {
    // An MCP server's error of one long line (Thai, Han and emoji, no spaces for a long stretch): the failure keeps its words as a value.
    const words = `ข้อผิดพลาด${"错误🌱".repeat(40_000)}`;
    const failed: AssistantMessage = {
      ...answer("done"),
      parts: [{ type: "tool-call", id: "c1", toolName: "fetch", toolId: "mcp__сервер__fetch", args: {}, status: "error", startedAt: 0, resultText: `The tool reported an error: ${words}`, failure: { kind: "mcp-error", values: { detail: words } } }],
    };
    const note = serializeChat(recordFromState({ ...state("done"), messages: [question, failed] }, freshBase(0), 0));
    const line = note.split("\n").find((text) => text.startsWith("> %%failure: ")) ?? "";
    expect(line.length).toBeLessThanOrEqual(MAX_SAVED_FAILURE_VALUE_CHARS + 100);
    expect(note.length).toBeLessThan(MAX_SAVED_RESULT_CHARS + MAX_SAVED_FAILURE_VALUE_CHARS + 1_000);
    // Read back, the kind stays, its words are their start (no half of a surrogate pair), marked as cut.
    const part = (parseChat(note).messages[1] as Extract<RecordMessage, { role: "assistant" }>).parts[0];
    const detail = part?.type === "tool" ? String(part.failure?.values.detail) : "";
    expect(part).toMatchObject({ failure: { kind: "mcp-error" } });
    expect(detail.endsWith(" …")).toBe(true);
    expect(words.startsWith(detail.slice(0, -2))).toBe(true);
    expect(detail).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it.each([
    ["streaming", "partial", "stopped"],
    ["stopped", "stopped", "stopped"],
    ["error", "failed", "error"],
    ["done", "done", "done"],
  ] as const)("an answer %s is saved %s and comes back %s", (status, saved, restored) => {
    const record = recordFromState(state(status), freshBase(0), 0);
    expect(record.messages[1]).toMatchObject({ status: saved });
    const back = messagesFromRecord(parseChat(serializeChat(record)))[1];
    expect(back).toMatchObject({ status: restored });
    // Nothing spins after a reload: a call saved while it ran comes back ended.
    expect(back?.role === "assistant" && back.parts[0]?.type === "tool-call" && back.parts[0].status).not.toBe("running");
    if (status === "error") expect(back).toMatchObject({ error: { message: "It broke." } });
  });
});

import fc from "fast-check";
import { parseChat, serializeChat } from "../../src/history/chatNoteFormat";
import { TOOL_FAILURE_KINDS, type ToolFailure } from "../../src/errorMessage";
import type { ChatRecord, RecordAnswer, RecordContextItem, RecordMessage, RecordPart, RecordQuestion, RecordToolStatus } from "../../src/history/chatRecord";

/**
 * Properties of the chat note format (designdocs/HISTORY.md): any chat written and read back is the
 * same chat, any note we wrote reads and writes back to the same bytes, and a note edited by hand
 * still reads, with the person's words as the chat's. Fixed seeds: the same cases on every run.
 */

/** Text pieces chosen to look like our own structure, Markdown that matters, and awkward Unicode. */
const TRICKY = [
  "## You",
  "## You · 2026-01-01T00:00:00Z",
  "## Copilot · x · chat · m",
  "## Copilot",
  "\\## You",
  "\\\\## Copilot · y",
  "> [!tool]- localSearch · ok",
  "> [!earlier]- Earlier version",
  "> [!context] Context",
  "> [!error] Failed",
  "> [!sources]- Sources",
  "> [!note] fine",
  "> quoted",
  ">",
  "```",
  "````js",
  "---",
  "- [[Note]]",
  "#tag",
  "\r",
  "\r\n",
  "\n",
  "\n\n",
  " ",
  "é",
  "e\u0301",
  "中文",
  "\u{1f600}",
  "\u0000",
  "\ufeff",
  "a",
  "word ",
];
const line = fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 6 })), { maxLength: 5 }).map((pieces) => pieces.join(""));
const text = fc.array(line, { minLength: 1, maxLength: 5 }).map((lines) => lines.join("\n"));
const nonEmptyText = text.filter((value) => value !== "");

const time = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true }).map((date) => date.toISOString().replace(/\.\d{3}Z$/, "Z"));
const mode = fc.constantFrom("chat" as const, "vault-qa" as const, "agent" as const);
/** Model names as servers name them: no " · " (the heading's separator) and no line break. */
const model = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,20}$/);
const pathSegment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,8}$/), fc.constantFrom("Café", "中文", "a#b", "x|y", "[z]", "q^", "a · b", "undone x"));
const notePath = fc.array(pathSegment, { minLength: 1, maxLength: 3 }).map((segments) => `${segments.join("/").replace(/[. ]+$/, "") || "n"}.md`);
const folderPath = fc.oneof(fc.constant(""), fc.array(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,8}$/), { minLength: 1, maxLength: 2 }).map((segments) => segments.join("/")));

const contextItem: fc.Arbitrary<RecordContextItem> = fc.oneof(
  notePath.map((path) => ({ kind: "note" as const, path })),
  fc.record({ path: notePath, fromLine: fc.integer({ min: 1, max: 500 }), span: fc.integer({ min: 0, max: 20 }) }).map(({ path, fromLine, span }) => ({ kind: "selection" as const, path, fromLine, toLine: fromLine + span })),
  folderPath.map((path) => ({ kind: "folder" as const, path })),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9/_-]{0,10}$/).map((tag) => ({ kind: "tag" as const, tag: `#${tag}` })),
  fc.tuple(fc.array(pathSegment, { minLength: 1, maxLength: 3 }), fc.constantFrom("png", "JPG", "webp", "gif")).map(([segments, extension]) => ({ kind: "image" as const, path: `${segments.join("/")}.${extension}` })),
  fc.stringMatching(/^[^\r\n]{1,20}$/).filter((name) => name.trim() === name && name !== "").map((name) => ({ kind: "pasted-image" as const, name })),
  fc.tuple(pathSegment, fc.constantFrom("", "?q=1&lang=ru", "#part")).map(([segment, rest]) => ({ kind: "web" as const, url: new URL(`https://example.org/${encodeURIComponent(segment)}${rest}`).href })),
);

/** A failure's kind and values: any kind, values of any text (a server's words can hold anything) or finite numbers. */
const toolFailure: fc.Arbitrary<ToolFailure> = fc.record({
  kind: fc.constantFrom(...TOOL_FAILURE_KINDS),
  values: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.string({ unit: "grapheme" }), fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value))), { maxKeys: 3 }),
});
const toolStatus = fc.constantFrom<RecordToolStatus>("ok", "error", "timeout", "aborted", "invalid-arguments", "unknown-tool", "running");
const toolCall: fc.Arbitrary<RecordPart> = fc.record(
  {
    type: fc.constant("tool" as const),
    name: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
    toolId: fc.stringMatching(/^[A-Za-z0-9_:.-]{1,20}$/),
    args: fc.jsonValue().map((value) => JSON.stringify(value, null, 2) ?? "null"),
    status: toolStatus,
    durationMs: fc.integer({ min: 0, max: 600_000 }),
    result: text,
    undone: notePath,
    failure: toolFailure,
  },
  { requiredKeys: ["type", "name", "args", "status"] },
);

/**
 * An answer's parts as the chat makes them: text and tool calls in any order, but never two text
 * parts in a row (streamed text joins the text before it) and never an empty text part (a part
 * starts with the first character that arrives).
 */
const parts = fc.array(fc.oneof(nonEmptyText.map((value): RecordPart => ({ type: "text", text: value })), toolCall), { maxLength: 5 }).map((list) =>
  list.filter((part, index) => !(part.type === "text" && list[index - 1]?.type === "text")),
);

/** What a question shows when a prompt made its text: one line, trimmed, which may hold the heading's own " · ". */
const shown = line.map((value) => value.replace(/\s+/g, " ").trim()).filter((value) => value !== "");
const question: fc.Arbitrary<RecordQuestion> = fc.record(
  { role: fc.constant("user" as const), time, text, shown, context: fc.array(contextItem, { maxLength: 4 }), undoneEdits: fc.array(notePath, { minLength: 1, maxLength: 2 }) },
  { requiredKeys: ["role", "time", "text", "context"] },
);
const answerWithout = (earlier: fc.Arbitrary<RecordMessage[][]>): fc.Arbitrary<RecordAnswer> =>
  fc.record(
    {
      role: fc.constant("assistant" as const),
      time,
      mode,
      model,
      status: fc.constantFrom("done" as const, "stopped" as const, "failed" as const, "partial" as const),
      parts,
      error: text,
      sources: fc.array(notePath, { maxLength: 3 }),
      earlier,
    },
    { requiredKeys: ["role", "time", "mode", "model", "status", "parts", "earlier"] },
  );
/** An earlier version of an exchange: its question and answer, which keep no versions of their own. */
const version = fc.tuple(question, answerWithout(fc.constant([]))).map(([q, a]): RecordMessage[] => [q, a]);
const message: fc.Arbitrary<RecordMessage> = fc.oneof(question, answerWithout(fc.array(version, { maxLength: 2 })));

const EXTRA_FRONTMATTER = ["aliases:\n  - Rose chat", "cssclasses: wide", "rating: 5\nstarred: true", "note: |-\n  first\n  second"];
const record: fc.Arbitrary<ChatRecord> = fc.record({
  id: fc.stringMatching(/^[a-z0-9-]{1,24}$/),
  mode,
  model,
  created: time,
  updated: time,
  tags: fc.array(fc.stringMatching(/^[a-z][a-z0-9/_-]{0,10}$/), { maxLength: 3 }),
  extraFrontmatter: fc.subarray(EXTRA_FRONTMATTER).map((blocks) => blocks.join("\n")),
  preamble: fc.oneof(fc.constant(""), nonEmptyText),
  messages: fc.array(message, { maxLength: 6 }),
});

describe("the chat note format", () => {
  it("reads back any chat it wrote as the same chat", () => {
    fc.assert(
      fc.property(record, (chat) => {
        expect(parseChat(serializeChat(chat))).toEqual(chat);
      }),
      { numRuns: 400, seed: 20261203 },
    );
  });

  it("writes back any note it wrote byte for byte", () => {
    fc.assert(
      fc.property(record, (chat) => {
        const file = serializeChat(chat);
        expect(serializeChat(parseChat(file))).toBe(file);
      }),
      { numRuns: 400, seed: 20261204 },
    );
  });

  it("still reads a note edited by hand, with the person's words as the chat's", () => {
    const withMessages = record.filter((chat) => chat.messages.length > 0);
    const edit = fc.constantFrom("reword", "remove-section", "add-paragraph", "add-property", "crlf");
    fc.assert(
      fc.property(withMessages, edit, fc.nat(), (chat, how, pick) => {
        const file = serializeChat(chat);
        // Where our headings start: lines split on "\n" only, as the note is read ("\r" is text).
        const headings: number[] = [];
        let offset = 0;
        for (const fileLine of file.split("\n")) {
          if (/^## (?:You|Copilot)(?: · .*)?$/.test(fileLine)) headings.push(offset);
          offset += fileLine.length + 1;
        }
        const at = headings[pick % headings.length] ?? 0;
        const next = headings.find((index) => index > at) ?? file.length;
        let edited = file;
        let check: (read: ChatRecord) => void = () => undefined;
        if (how === "reword") {
          // A new first line of text under a heading: the message reads with it.
          const headingEnd = file.indexOf("\n", at);
          edited = `${file.slice(0, headingEnd)}\n\nReworded by hand.\n${file.slice(headingEnd)}`;
          check = (read) => expect(JSON.stringify(read.messages)).toContain("Reworded by hand.");
        } else if (how === "remove-section") {
          edited = file.slice(0, at) + file.slice(next);
          check = (read) => expect(read.messages.length).toBeLessThan(chat.messages.length);
        } else if (how === "add-paragraph") {
          edited = `${file.slice(0, next)}\nA paragraph the person added.\n${file.slice(next)}`;
          check = (read) => expect(JSON.stringify(read)).toContain("A paragraph the person added.");
        } else if (how === "add-property") {
          edited = file.replace(/\n---\n/, "\npublish: false\n---\n");
          check = (read) => expect(read.extraFrontmatter).toContain("publish: false");
        } else {
          edited = file.replace(/\r?\n/g, "\r\n");
          check = (read) => {
            expect(read.id).toBe(chat.id);
            expect(read.messages.map((entry) => entry.role)).toEqual(chat.messages.map((entry) => entry.role));
          };
        }
        const read = parseChat(edited);
        check(read);
        // Whatever it read, it writes and reads back to the same chat from then on.
        expect(parseChat(serializeChat(read))).toEqual(read);
      }),
      { numRuns: 300, seed: 20261205 },
    );
  });
});

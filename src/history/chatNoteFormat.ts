import { errorMessage, isToolFailureKind, type ToolFailure } from "../errorMessage";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { fencedBlocks, fenceFor } from "../markdown/fences";
import { chatModeList, isChatMode } from "../settings/chatModes";
import type { ChatMode } from "../settings/settingsSchema";
import { savedStatusNamed } from "../chat/answerStatus";
import type {
  ChatRecord,
  RecordAnswer,
  RecordContextItem,
  RecordMessage,
  RecordQuestion,
  RecordToolCall,
  RecordToolStatus,
} from "./chatRecord";

/**
 * A chat note, written and read back. The format is described in designdocs/HISTORY.md; in short:
 *
 *   frontmatter (chat-id, mode, model, project when the chat is in one, created, updated, tags)
 *   ## You · <time>[ · <shown>]           a question: its text, then a `> [!context]` callout
 *                                         (<shown>: what the user wrote, when the text was made from it)
 *   ## Copilot · <time> · <mode> · <model>[ · rewrite][ · stopped|failed|partial]
 *                                         an answer: text and `> [!tool]` callouts in order, then
 *                                         `> [!error]`, `> [!sources]`, `> [!earlier]` callouts
 *
 * Blocks are separated by one blank line. A line of a message's own text that would read as our
 * structure (a `## You` / `## Copilot` heading, one of our callouts) is written with one more
 * leading backslash, and read back with one less: any text round-trips, and Markdown shows the
 * escaped line as the person wrote it. A note saved with Windows line endings (every line ending
 * in "\r\n") reads as its twin with "\n" endings; a mixed note is read line by line, our structure's
 * lines allowed to end in "\r".
 */

const HEADING = /^## (You|Copilot)(?: · (.*?))?\r?$/s;
type CalloutKind = "context" | "tool" | "error" | "sources" | "earlier";
/** Dot-all: a title may hold U+2028 or U+2029 (an undone edit's note path), at which "." alone stops. */
const CALLOUT = /^> \[!(context|tool|error|sources|earlier)\][-+]?(?: (.*?))?\r?$/s;
/** Lines of text that begin like our structure, after any number of backslashes. */
const ESCAPABLE = /^\\*(?:## (?:You|Copilot)|> \[!(?:context|tool|error|sources|earlier)\])/;
const FIELD = " · ";
/** The answer heading's field for a rewrite shown as the edit it proposes (AssistantMessage.rewrite). */
const REWRITE_FIELD = "rewrite";
const TOOL_STATUSES: readonly RecordToolStatus[] = ["ok", "error", "timeout", "aborted", "invalid-arguments", "unknown-tool", "running"];
/** Frontmatter properties the chat owns, in the order they are written. */
const OWN_KEYS = ["chat-id", "mode", "model", "project", "created", "updated", "tags"] as const;
/** A question's context line naming an edit the user undid before asking it ("- edit undone: [[Plan]]"). */
const UNDONE_EDIT_LINE = "- edit undone: ";
/** The last field of a tool callout's title when the user undid the call's edit ("undone Plan.md"). */
const UNDONE_FIELD = "undone ";
/** A tool callout's line for a failed call's kind and values, after "Tool id:": an Obsidian comment, hidden in reading view. */
const FAILURE_OPEN = "%%failure: ";
const FAILURE_CLOSE = "%%";
/** A byte-order mark, which some Windows editors put before the frontmatter. */
const BOM = "\uFEFF";

/** Why a note is not a chat we can read, by case and values, for a view in another language. */
export type ChatNoteReason =
  | { code: "no-frontmatter" }
  | { code: "frontmatter-not-closed" }
  | { code: "no-chat-id" }
  | { code: "chat-id-not-text" }
  /** `mode` as written, `modes` the mode ids. */
  | { code: "mode-invalid"; mode: string; modes: string }
  /** `detail`: the YAML parser's first line, in its words. */
  | { code: "property-not-yaml"; key: string; detail: string }
  /** Not UTF-8 text: going on would rewrite bytes nobody was shown. */
  | { code: "not-utf8" };

/**
 * A note that is not a chat we can read: it is left as it is, and the reason is shown. `reason`
 * is its case; `path` the note, once it is known (ChatHistory.load names it).
 */
export class ChatNoteParseError extends Error {
  constructor(
    message: string,
    readonly reason: ChatNoteReason,
    readonly path?: string,
  ) {
    super(message);
    this.name = "ChatNoteParseError";
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

export function serializeChat(record: ChatRecord): string {
  const frontmatter = [
    yamlLine("chat-id", record.id),
    yamlLine("mode", record.mode),
    yamlLine("model", record.model),
    record.project !== undefined ? yamlLine("project", record.project) : "",
    yamlLine("created", record.created),
    yamlLine("updated", record.updated),
    yamlLine("tags", record.tags),
    record.extraFrontmatter,
  ]
    .filter((block) => block !== "")
    .join("\n");
  const body = [""];
  if (record.preamble !== "") body.push(...escapeText(record.preamble));
  record.messages.forEach((message, index) => {
    if (index > 0 || record.preamble !== "") body.push("");
    body.push(...messageLines(message));
  });
  return `${record.bom ? BOM : ""}---\n${frontmatter}\n---\n${body.join("\n")}\n`;
}

function messageLines(message: RecordMessage): string[] {
  const blocks = message.role === "user" ? questionBlocks(message) : answerBlocks(message);
  const heading = message.role === "user" ? questionHeading(message) : answerHeading(message);
  return [heading, ...blocks.flatMap((block) => ["", ...block])];
}

function questionBlocks(question: RecordQuestion): string[][] {
  const blocks = [escapeText(question.text)];
  const undone = question.undoneEdits ?? [];
  if (question.context.length > 0 || undone.length > 0) {
    blocks.push(callout("context", "Context", [...question.context.map(contextLine), ...undone.map((path) => `${UNDONE_EDIT_LINE}${noteLink(path)}`)]));
  }
  return blocks;
}

/** "## You · <time>", then what the user wrote when the text sent was made from it (one line: a heading holds no break). */
function questionHeading(question: RecordQuestion): string {
  const shown = question.shown?.replace(/\s+/g, " ").trim();
  return `## You${FIELD}${question.time}${shown ? `${FIELD}${shown}` : ""}`;
}

function answerHeading(answer: RecordAnswer): string {
  const fields = [answer.time, answer.mode, answer.model];
  if (answer.rewrite) fields.push(REWRITE_FIELD);
  if (answer.status !== "done") fields.push(answer.status);
  return `## Copilot${FIELD}${fields.join(FIELD)}`;
}

function answerBlocks(answer: RecordAnswer): string[][] {
  const blocks = answer.parts.map((part) => (part.type === "text" ? escapeText(part.text) : toolCallout(part)));
  if (answer.error !== undefined) blocks.push(callout("error", "Failed", answer.error.split("\n")));
  if (answer.sources !== undefined) blocks.push(callout("sources", "Sources", answer.sources.map((path) => `- ${noteLink(path)}`), true));
  for (const version of answer.earlier) blocks.push(callout("earlier", "Earlier version", messagesLines(version), true));
  return blocks;
}

function messagesLines(messages: readonly RecordMessage[]): string[] {
  return messages.flatMap((message, index) => [...(index > 0 ? [""] : []), ...messageLines(message)]);
}

function toolCallout(call: RecordToolCall): string[] {
  const title = [call.name, call.status, ...(call.durationMs !== undefined ? [`${call.durationMs} ms`] : []), ...(call.undone !== undefined ? [`${UNDONE_FIELD}${call.undone}`] : [])].join(FIELD);
  const inner = [...(call.toolId !== undefined ? [`Tool id: ${call.toolId}`] : []), ...(call.failure !== undefined ? [failureLine(call.failure)] : []), ...fenced("json", call.args)];
  if (call.result !== undefined) inner.push(...fenced("text", call.result));
  return callout("tool", title, inner, true);
}

function callout(kind: CalloutKind, title: string, inner: readonly string[], folded = false): string[] {
  return [`> [!${kind}]${folded ? "-" : ""} ${title}`, ...inner.map((line) => (line === "" ? ">" : `> ${line}`))];
}

/** A code block whose fence is longer than any run of backticks in the text, so nothing in it can close it. */
function fenced(info: string, text: string): string[] {
  const fence = fenceFor(text);
  return [`${fence}${info}`, ...text.split("\n"), fence];
}

function contextLine(item: RecordContextItem): string {
  switch (item.kind) {
    case "note":
      return `- ${noteLink(item.path)}`;
    case "selection": {
      const lines = item.fromLine === item.toLine ? `line ${item.fromLine}` : `lines ${item.fromLine}–${item.toLine}`;
      return wikilinkable(item.path) ? `- ${noteLink(item.path)} ${lines}` : `- note (${lines}): ${item.path}`;
    }
    case "folder":
      return `- folder: ${item.path}/`;
    case "tag":
      // In a code span, so the chat note does not itself get the tag.
      return `- tag: \`${item.tag}\``;
    case "image":
      return `- image: ${item.path}`;
    case "pasted-image":
      return `- pasted image: ${item.name}`;
    case "web":
      // In angle brackets: the address as written, a link in the note.
      return `- page: <${item.url}>`;
  }
}

/** `[[Projects/Alpha]]` for "Projects/Alpha.md"; a path no wikilink can hold is written as it is. */
function noteLink(path: string): string {
  return wikilinkable(path) ? `[[${path.slice(0, -3)}]]` : `note: ${path}`;
}

function wikilinkable(path: string): boolean {
  return path.endsWith(".md") && path.length > 3 && !/[[\]|#^\r\n]/.test(path);
}

function escapeText(text: string): string[] {
  return text.split("\n").map((line) => (ESCAPABLE.test(line) ? `\\${line}` : line));
}

function yamlLine(key: string, value: string | readonly string[]): string {
  if (Array.isArray(value) && value.length === 0) return `${key}: []`;
  return stringifyYaml({ [key]: value }, { lineWidth: 0 }).replace(/\n$/, "");
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * Reads a chat note. Lenient with what a person may have changed (a message reworded, a section
 * removed, text added, properties added or reordered); throws `ChatNoteParseError` only when the
 * note is not a chat at all (no frontmatter, no chat id, a mode we do not know).
 */
export function parseChat(note: string): ChatRecord {
  const bom = note.startsWith(BOM);
  const text = bom ? note.slice(BOM.length) : note;
  // A note saved with Windows line endings ends every line in "\r\n": the "\r" is the break's,
  // not the text's. A "\r" of a message's own text is kept (it is followed by a bare "\n", or by a
  // second "\r" in such a note).
  const lines = /(?<!\r)\n/.test(text) ? text.split("\n") : text.split("\r\n");
  if (!/^---\r?$/.test(lines[0] ?? "")) throw new ChatNoteParseError("it has no frontmatter (a chat note starts with ---)", { code: "no-frontmatter" });
  const end = lines.findIndex((line, index) => index > 0 && /^---\r?$/.test(line));
  if (end === -1) throw new ChatNoteParseError("its frontmatter is not closed by a --- line", { code: "frontmatter-not-closed" });
  const { own, extra } = readFrontmatter(lines.slice(1, end));

  const id = own.get("chat-id");
  if (typeof id !== "string" || id.trim() === "") throw new ChatNoteParseError("its frontmatter has no chat-id", { code: "no-chat-id" });
  const mode = own.get("mode");
  if (!isChatMode(mode)) throw new ChatNoteParseError(`its mode "${String(mode)}" is not one of ${chatModeList()}`, { code: "mode-invalid", mode: String(mode), modes: chatModeList() });
  const model = own.get("model");
  const created = stringOr(own.get("created"), "");
  const updated = stringOr(own.get("updated"), created);
  const defaults: AnswerDefaults = { mode, model: stringOr(model, ""), time: updated };

  const { preamble, messages } = readBody(lines.slice(end + 1), defaults);
  const project = stringOr(own.get("project"), "").trim();
  return {
    id,
    mode,
    model: stringOr(model, ""),
    ...(project !== "" ? { project } : {}),
    created,
    updated,
    tags: tagList(own.get("tags")),
    extraFrontmatter: extra,
    preamble,
    messages,
    ...(bom ? { bom } : {}),
  };
}

interface AnswerDefaults {
  mode: ChatMode;
  model: string;
  time: string;
}

/** Our properties by name (parsed), and the other properties' lines as written. */
function readFrontmatter(lines: readonly string[]): { own: Map<string, unknown>; extra: string } {
  const blocks: { key: string | null; lines: string[] }[] = [];
  // Properties are rewritten in our own form: a note saved with CRLF reads like its LF twin.
  for (const line of lines.map((entry) => entry.replace(/\r$/, ""))) {
    const key = /^([^\s#-][^:]*):(?:\s|$)/.exec(line)?.[1] ?? null;
    const last = blocks.at(-1);
    // A comment at the line's start belongs to no property (a value's own lines are indented).
    if (key !== null || !last || line.startsWith("#")) blocks.push({ key, lines: [line] });
    else last.lines.push(line);
  }
  const own = new Map<string, unknown>();
  const extra: string[] = [];
  for (const block of blocks) {
    if (block.key !== null && (OWN_KEYS as readonly string[]).includes(block.key)) {
      try {
        own.set(block.key, (parseYaml(block.lines.join("\n")) as Record<string, unknown> | null)?.[block.key]);
      } catch (error) {
        const detail = errorMessage(error).split("\n")[0] ?? "";
        throw new ChatNoteParseError(`its property "${block.key}" is not valid YAML (${detail})`, { code: "property-not-yaml", key: block.key, detail });
      }
    } else extra.push(...block.lines);
  }
  return { own, extra: extra.join("\n") };
}

/** The note's body: text runs, headings and callouts, as a sequence of tokens. */
type Token = { type: "heading"; who: "You" | "Copilot"; fields: string } | { type: "callout"; kind: CalloutKind; title: string; inner: string[]; raw: string[] } | { type: "text"; lines: string[] };

function tokenize(lines: readonly string[]): Token[] {
  const tokens: Token[] = [];
  let run: string[] = [];
  const endRun = () => {
    const text = trimRun(run);
    if (text) tokens.push({ type: "text", lines: text });
    run = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const heading = HEADING.exec(line);
    const callout = heading ? null : CALLOUT.exec(line);
    if (heading) {
      endRun();
      tokens.push({ type: "heading", who: heading[1] as "You" | "Copilot", fields: heading[2] ?? "" });
    } else if (callout) {
      endRun();
      const raw = [line];
      while (index + 1 < lines.length && (lines[index + 1] ?? "").startsWith(">")) raw.push(lines[++index] ?? "");
      tokens.push({ type: "callout", kind: callout[1] as CalloutKind, title: callout[2] ?? "", inner: raw.slice(1).map(unquote), raw });
    } else run.push(line);
  }
  endRun();
  return tokens;
}

/** A run of text lines between structure: one blank line each side is the separator, not text. */
function trimRun(run: readonly string[]): string[] | null {
  let lines = run;
  if (lines.length > 0 && isBlank(lines[0] ?? "")) lines = lines.slice(1);
  if (lines.length > 0 && isBlank(lines.at(-1) ?? "")) lines = lines.slice(0, -1);
  return lines.length > 0 ? lines.map(unescapeLine) : null;
}

function readBody(lines: readonly string[], defaults: AnswerDefaults): { preamble: string; messages: RecordMessage[] } {
  const tokens = tokenize(lines);
  const messages: RecordMessage[] = [];
  const preamble: string[] = [];
  let current: RecordMessage | null = null;
  for (const token of tokens) {
    if (token.type === "heading") {
      current = token.who === "You" ? newQuestion(token.fields, defaults) : newAnswer(token.fields, defaults);
      messages.push(current);
    } else if (!current) preamble.push(token.type === "text" ? token.lines.join("\n") : token.raw.map(unescapeLine).join("\n"));
    else if (current.role === "user") addToQuestion(current, token);
    else addToAnswer(current, token, defaults);
  }
  return { preamble: preamble.join("\n\n"), messages };
}

function newQuestion(fields: string, defaults: AnswerDefaults): RecordQuestion {
  // The time, then (in notes since the shown text was kept) what the user wrote, which may hold " · " itself.
  const [time = "", ...rest] = fields.split(FIELD);
  const shown = rest.join(FIELD).trim();
  return { role: "user", time: time.trim() || defaults.time, text: "", ...(shown ? { shown } : {}), context: [] };
}

function newAnswer(fields: string, defaults: AnswerDefaults): RecordAnswer {
  const values = fields === "" ? [] : fields.split(FIELD);
  const time = values.shift()?.trim() || defaults.time;
  const mode = isChatMode(values[0]) ? (values.shift() as ChatMode) : defaults.mode;
  const last = values.at(-1);
  const status = values.length > 1 ? savedStatusNamed(last) : undefined;
  if (status) values.pop();
  // "rewrite" after the model (never the model itself: the model comes first).
  const rewrite = values.length > 1 && values.at(-1) === REWRITE_FIELD;
  if (rewrite) values.pop();
  const model = values.join(FIELD) || defaults.model;
  return { role: "assistant", time, mode, model, status: status ?? "done", ...(rewrite ? { rewrite: true as const } : {}), parts: [], earlier: [] };
}

function addToQuestion(question: RecordQuestion, token: Exclude<Token, { type: "heading" }>): void {
  if (token.type === "callout" && token.kind === "context") {
    for (const line of token.inner) {
      const undone = parseUndoneEditLine(line);
      if (undone !== null) (question.undoneEdits ??= []).push(undone);
      else {
        const item = parseContextLine(line);
        if (item) question.context.push(item);
      }
    }
    return;
  }
  // Anything else a person put in a question is part of its text.
  const text = token.type === "text" ? token.lines.join("\n") : token.raw.join("\n");
  question.text = question.text === "" ? text : `${question.text}\n\n${text}`;
}

function addToAnswer(answer: RecordAnswer, token: Exclude<Token, { type: "heading" }>, defaults: AnswerDefaults): void {
  if (token.type === "text") {
    const text = token.lines.join("\n");
    const last = answer.parts.at(-1);
    // Text a person wrote after an answer's other callouts joins its last text, as it will read when written back.
    if (last?.type === "text") last.text = `${last.text}\n\n${text}`;
    else answer.parts.push({ type: "text", text });
    return;
  }
  switch (token.kind) {
    case "tool":
      answer.parts.push(parseToolCallout(token.title, token.inner));
      return;
    case "error":
      answer.error = token.inner.join("\n");
      return;
    case "sources":
      answer.sources = token.inner.flatMap((line) => {
        const item = parseContextLine(line);
        return item?.kind === "note" ? [item.path] : [];
      });
      return;
    case "earlier":
      // The callout's inner lines are a message list; the virtual "" stands for a note's final newline.
      answer.earlier.push(readBody([...token.inner, ""], defaults).messages);
      return;
    case "context":
      answer.parts.push({ type: "text", text: token.raw.join("\n") });
  }
}

function parseToolCallout(title: string, inner: readonly string[]): RecordToolCall {
  const all = title.split(FIELD);
  // "undone <path>" is the last field; a path may itself hold " · ".
  const undoneAt = all.findIndex((field, index) => index > 0 && field.startsWith(UNDONE_FIELD));
  const fields = undoneAt === -1 ? all : all.slice(0, undoneAt);
  const name = fields[0]?.trim() ?? "";
  const written = fields[1]?.trim() ?? "ok";
  const status: RecordToolStatus = (TOOL_STATUSES as readonly string[]).includes(written) ? (written as RecordToolStatus) : "ok";
  const duration = /^(\d+) ms$/.exec(fields[2]?.trim() ?? "")?.[1];
  const call: RecordToolCall = { type: "tool", name, args: "{}", status };
  let index = 0;
  const toolId = /^Tool id: (.*?)\r?$/.exec(inner[0] ?? "")?.[1];
  if (toolId !== undefined) {
    call.toolId = toolId;
    index = 1;
  }
  const failure = parseFailureLine(inner[index] ?? "");
  if (failure !== null) {
    call.failure = failure;
    index += 1;
  }
  // The callout's lines have lost their "> ": the code blocks are read as any note's.
  const blocks = fencedBlocks(inner.slice(index));
  const args = blocks.find((block) => block.info === "json");
  const result = blocks.find((block) => block.info === "text");
  if (args) call.args = args.lines.join("\n");
  if (duration !== undefined) call.durationMs = Number(duration);
  if (result) call.result = result.lines.join("\n");
  if (undoneAt !== -1) call.undone = all.slice(undoneAt).join(FIELD).slice(UNDONE_FIELD.length).replace(/\r$/, "");
  return call;
}

/**
 * A failed call's kind and values, as an Obsidian comment (`%%…%%`): hidden when the note is read
 * in Obsidian, read back here and by the CLI. The values are JSON with "%" escaped, so no value
 * can close the comment early.
 */
function failureLine(failure: ToolFailure): string {
  return `${FAILURE_OPEN}${failure.kind} ${JSON.stringify(failure.values).replace(/%/g, "\\u0025")}${FAILURE_CLOSE}`;
}

/** The failure a `%%failure: …%%` line holds, or null for any other line (or one of a kind this version does not know). */
function parseFailureLine(line: string): ToolFailure | null {
  // Dot-all: JSON leaves U+2028 and U+2029 in a value as they are, and "." alone stops at them.
  const match = /^%%failure: ([a-z-]+) (\{.*\})%%\r?$/s.exec(line);
  if (!match || !isToolFailureKind(match[1] ?? "")) return null;
  let values: unknown;
  try {
    values = JSON.parse(match[2] ?? "");
  } catch {
    return null;
  }
  if (typeof values !== "object" || values === null || Array.isArray(values)) return null;
  const entries = Object.entries(values);
  if (!entries.every(([, value]) => typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))) return null;
  return { kind: match[1] as ToolFailure["kind"], values: Object.fromEntries(entries) };
}

/** The note of an "- edit undone: …" line, or null for any other line. */
function parseUndoneEditLine(line: string): string | null {
  const content = line.replace(/\r$/, "");
  if (!content.startsWith(UNDONE_EDIT_LINE)) return null;
  const target = content.slice(UNDONE_EDIT_LINE.length);
  const link = /^\[\[([^\]]+)\]\]$/.exec(target);
  if (link) return `${link[1] ?? ""}.md`;
  return target.startsWith("note: ") ? target.slice("note: ".length) : target;
}

// Line patterns here are dot-all ("s"): a path may hold U+2028 or U+2029, at which "." alone stops.
function parseContextLine(line: string): RecordContextItem | null {
  const content = line.replace(/\r$/, "");
  const link = /^- \[\[([^\]]+)\]\](?: lines? (\d+)(?:–(\d+))?)?$/.exec(content);
  if (link) {
    const path = `${link[1] ?? ""}.md`;
    if (link[2] === undefined) return { kind: "note", path };
    const fromLine = Number(link[2]);
    return { kind: "selection", path, fromLine, toLine: link[3] === undefined ? fromLine : Number(link[3]) };
  }
  const plain = /^- note(?: \(lines? (\d+)(?:–(\d+))?\))?: (.+)$/s.exec(content);
  if (plain) {
    const path = plain[3] ?? "";
    if (plain[1] === undefined) return { kind: "note", path };
    const fromLine = Number(plain[1]);
    return { kind: "selection", path, fromLine, toLine: plain[2] === undefined ? fromLine : Number(plain[2]) };
  }
  const folder = /^- folder: (.*)\/$/s.exec(content);
  if (folder) return { kind: "folder", path: folder[1] ?? "" };
  const tag = /^- tag: `([^`]+)`$/.exec(content);
  if (tag) return { kind: "tag", tag: tag[1] ?? "" };
  const image = /^- image: (.+)$/s.exec(content);
  if (image) return { kind: "image", path: image[1] ?? "" };
  const pasted = /^- pasted image: (.+)$/s.exec(content);
  if (pasted) return { kind: "pasted-image", name: pasted[1] ?? "" };
  const page = /^- page: <(https?:\/\/[^>\s]+)>$/.exec(content);
  if (page) return { kind: "web", url: page[1] ?? "" };
  return null;
}

function unquote(line: string): string {
  if (line.startsWith("> ")) return line.slice(2);
  return line.slice(1);
}

function unescapeLine(line: string): string {
  return /^\\+/.test(line) && ESCAPABLE.test(line) ? line.slice(1) : line;
}

function isBlank(line: string): boolean {
  return line === "" || line === "\r";
}

function stringOr(value: unknown, fallback: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return fallback;
}

function tagList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((tag): tag is string | number => typeof tag === "string" || typeof tag === "number").map(String);
  if (typeof value === "string") return value.split(/[,\s]+/).filter(Boolean);
  return [];
}

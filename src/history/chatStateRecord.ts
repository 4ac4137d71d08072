import { liveStatus, savedStatus } from "../chat/answerStatus";
import { folderChip, imageChip, noteChip, selectionChip, tagChip, webChip } from "../chat/chipArtifacts";
import type { AssistantMessage, AssistantPart, ChatMessage, ChatState, ContextChip, UserMessage } from "../chat/chatTypes";
import type { SearchResultForLLM } from "../ports/NoteSearcher";
import type { ToolFailure } from "../errorMessage";
import { cutAtWord } from "../text/cutAtWord";
import { CHAT_NOTE_TAG, type ChatRecord, type RecordAnswer, type RecordContextItem, type RecordMessage, type RecordPart, type RecordQuestion } from "./chatRecord";

/** The longest tool result a chat note keeps (what the model read may be longer; the banner showed this much). */
export const MAX_SAVED_RESULT_CHARS = 4000;

/**
 * The longest text value of a failed call's kind a chat note keeps (a server's own words among
 * them): the banner shows it as one sentence, and the note stays within the result's cap.
 */
export const MAX_SAVED_FAILURE_VALUE_CHARS = 500;

/** What a chat note holds besides the conversation: kept from the note it was loaded from. */
export interface ChatNoteBase {
  created: string;
  tags: string[];
  extraFrontmatter: string;
  preamble: string;
  /** The note began with a byte-order mark: it keeps it. */
  bom?: true;
}

/** The base of a chat that has no note yet. */
export function freshBase(now: number): ChatNoteBase {
  return { created: isoSecond(now), tags: [CHAT_NOTE_TAG], extraFrontmatter: "", preamble: "" };
}

export function baseOf(record: ChatRecord): ChatNoteBase {
  return { created: record.created, tags: record.tags, extraFrontmatter: record.extraFrontmatter, preamble: record.preamble, ...(record.bom ? { bom: record.bom } : {}) };
}

/** Epoch ms as the note writes times: UTC, to the second. */
export function isoSecond(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

// ---------------------------------------------------------------------------------------------
// The chat's state, as its note will hold it

export function recordFromState(state: Pick<ChatState, "chatId" | "mode" | "model" | "messages"> & { project?: string | null }, base: ChatNoteBase, now: number): ChatRecord {
  return {
    id: state.chatId,
    mode: state.mode,
    model: state.model,
    ...(state.project ? { project: state.project } : {}),
    created: base.created,
    updated: isoSecond(now),
    tags: base.tags,
    extraFrontmatter: base.extraFrontmatter,
    preamble: base.preamble,
    messages: state.messages.map(recordMessage),
    ...(base.bom ? { bom: base.bom } : {}),
  };
}

function recordMessage(message: ChatMessage): RecordMessage {
  if (message.role === "user") {
    return {
      role: "user",
      time: isoSecond(message.sentAt),
      text: message.text,
      ...(message.shown !== undefined ? { shown: message.shown } : {}),
      context: message.chips.map(contextItem),
      ...(message.undoneEdits && message.undoneEdits.length > 0 ? { undoneEdits: [...message.undoneEdits] } : {}),
    };
  }
  const answer: RecordAnswer = {
    role: "assistant",
    time: isoSecond(message.startedAt),
    mode: message.mode,
    model: message.model,
    status: savedStatus(message.status),
    ...(message.rewrite ? { rewrite: true as const } : {}),
    parts: message.parts.map(recordPart),
    earlier: (message.earlier ?? []).map((version) => version.map(recordMessage)),
  };
  if (message.error) answer.error = message.error.message;
  if (message.sources) answer.sources = message.sources.map((source) => source.path);
  return answer;
}

function recordPart(part: AssistantPart): RecordPart {
  if (part.type === "text") return { type: "text", text: part.text };
  return {
    type: "tool",
    name: part.toolName,
    ...(part.toolId !== undefined && part.toolId !== part.toolName ? { toolId: part.toolId } : {}),
    args: JSON.stringify(part.args ?? {}, null, 2) ?? "{}",
    status: part.status,
    ...(part.durationMs !== undefined ? { durationMs: Math.round(part.durationMs) } : {}),
    ...(part.resultText !== undefined ? { result: capResult(part.resultText) } : {}),
    ...(part.undone ? { undone: part.undone.path } : {}),
    ...(part.failure ? { failure: capFailure(part.failure) } : {}),
  };
}

/** The failure with each text value cut at a word to the cap, " …" marking a cut one. */
function capFailure(failure: ToolFailure): ToolFailure {
  const values = Object.entries(failure.values).map(([name, value]) => {
    if (typeof value !== "string" || value.length <= MAX_SAVED_FAILURE_VALUE_CHARS) return [name, value] as const;
    return [name, `${cutAtWord(value, MAX_SAVED_FAILURE_VALUE_CHARS)} …`] as const;
  });
  return { kind: failure.kind, values: Object.fromEntries(values) };
}

function capResult(text: string): string {
  if (text.length <= MAX_SAVED_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_SAVED_RESULT_CHARS)}\n… (${text.length - MAX_SAVED_RESULT_CHARS} more characters not kept in the note)`;
}

function contextItem(chip: ContextChip): RecordContextItem {
  switch (chip.kind) {
    case "note":
      return { kind: "note", path: chip.target };
    case "folder":
      return { kind: "folder", path: chip.target };
    case "tag":
      return { kind: "tag", tag: chip.target };
    case "selection":
      return { kind: "selection", path: chip.target, fromLine: chip.selection?.fromLine ?? 1, toLine: chip.selection?.toLine ?? 1 };
    case "image":
      return chip.pasted ? { kind: "pasted-image", name: chip.label } : { kind: "image", path: chip.target };
    case "web":
      return { kind: "web", url: chip.target };
  }
}

// ---------------------------------------------------------------------------------------------
// A note's chat, as the chat view holds it

/**
 * The messages of a saved chat. Questions come back with their chips but no artifacts (the
 * attached notes are read again when the chat goes on, see `restoreChat`); a selection chip's
 * text is empty until then. An answer saved while it was arriving comes back stopped.
 */
export function messagesFromRecord(record: ChatRecord): ChatMessage[] {
  let counter = 0;
  const nextId = (kind: string) => `${kind}-${record.id}-${++counter}`;
  const convert = (message: RecordMessage): ChatMessage => (message.role === "user" ? question(message, nextId) : answer(message, nextId, convert));
  return record.messages.map(convert);
}

function question(message: RecordQuestion, nextId: (kind: string) => string): UserMessage {
  return {
    id: nextId("user"),
    role: "user",
    text: message.text,
    ...(message.shown !== undefined ? { shown: message.shown } : {}),
    chips: message.context.map(chipOf),
    artifacts: [],
    sentAt: timeOf(message.time),
    ...(message.undoneEdits && message.undoneEdits.length > 0 ? { undoneEdits: message.undoneEdits } : {}),
  };
}

function answer(message: RecordAnswer, nextId: (kind: string) => string, convert: (message: RecordMessage) => ChatMessage): AssistantMessage {
  const startedAt = timeOf(message.time);
  let texts = 0;
  const parts = message.parts.map((part): AssistantPart => {
    if (part.type === "text") return { type: "text", id: `text-${++texts}`, text: part.text };
    return {
      type: "tool-call",
      id: nextId("tool"),
      toolName: part.name,
      toolId: part.toolId ?? part.name,
      args: parseArgs(part.args),
      // Nothing runs any more: a call saved while it ran ended with the run.
      status: part.status === "running" ? "aborted" : part.status,
      startedAt,
      ...(part.durationMs !== undefined ? { durationMs: part.durationMs } : {}),
      ...(part.result !== undefined ? { resultText: part.result } : {}),
      ...(part.undone !== undefined ? { undone: { path: part.undone } } : {}),
      ...(part.failure !== undefined ? { failure: part.failure } : {}),
    };
  });
  const status = liveStatus(message.status);
  return {
    id: nextId("answer"),
    role: "assistant",
    parts,
    status,
    mode: message.mode,
    model: message.model,
    startedAt,
    ...(message.rewrite ? { rewrite: true as const } : {}),
    ...(message.error !== undefined ? { error: { kind: "failed" as const, message: message.error } } : status === "error" ? { error: { kind: "failed" as const, message: "The answer failed." } } : {}),
    ...(message.sources !== undefined ? { sources: message.sources.map(sourceOf) } : {}),
    ...(message.earlier.length > 0 ? { earlier: message.earlier.map((version) => version.map(convert)) } : {}),
  };
}

function chipOf(item: RecordContextItem): ContextChip {
  switch (item.kind) {
    case "note":
      return noteChip(item.path);
    case "folder":
      return folderChip(item.path);
    case "tag":
      return tagChip(item.tag);
    case "selection":
      return selectionChip(item.path, "", item.fromLine, item.toLine);
    case "image":
      return imageChip(item.path);
    case "pasted-image":
      // Its bytes were never kept: the chip shows what was sent, and reads as nothing.
      return { id: `pasted-image:${item.name}`, kind: "image", label: item.name, target: item.name, pasted: { bytes: new Uint8Array(0) } };
    case "web":
      return webChip(item.url);
  }
}

function sourceOf(path: string): SearchResultForLLM {
  return { path, title: path.replace(/^.*\//, "").replace(/\.md$/, ""), content: "", score: 0 };
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function timeOf(time: string): number {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : ms;
}

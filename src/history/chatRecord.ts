import type { ToolFailure } from "../errorMessage";
import type { SavedAnswerStatus } from "../chat/answerStatus";
import type { ToolCallPartStatus } from "../chat/chatTypes";
import type { ChatMode } from "../settings/settingsSchema";

/**
 * A chat as its note holds it: what `chatNoteFormat` writes and reads back. It is the note's
 * content in structured form, nothing more: times to the second, tool results already capped,
 * context as links. `chatStateRecord` converts between it and the chat view's state.
 */
export interface ChatRecord {
  /** Stable for the chat's life: the note is found by it after a rename or a move. */
  id: string;
  mode: ChatMode;
  model: string;
  /** The project the chat is in (its name); absent for a chat of the whole vault. */
  project?: string;
  /** UTC, to the second: "2026-12-03T14:05:12Z". */
  created: string;
  updated: string;
  tags: string[];
  /** Frontmatter properties the chat does not own (added by a person or another plugin), as written. */
  extraFrontmatter: string;
  /** Text a person wrote between the frontmatter and the first message: kept, never sent. */
  preamble: string;
  messages: RecordMessage[];
  /** The note began with a byte-order mark (some Windows editors write one): it is written back. */
  bom?: true;
}

export type RecordMessage = RecordQuestion | RecordAnswer;

export interface RecordQuestion {
  role: "user";
  time: string;
  /** What the model read. */
  text: string;
  /** What the user wrote, when the text was made from it ("/Summarize · Deep Work"): one line, kept in the heading. */
  shown?: string;
  context: RecordContextItem[];
  /** The notes whose edit the user had undone, told to the model with this question (absent when none). */
  undoneEdits?: string[];
}

/** Attached context, as a link: the text itself is the note's, read again when the chat goes on. */
export type RecordContextItem =
  | { kind: "note"; path: string }
  | { kind: "selection"; path: string; fromLine: number; toLine: number }
  | { kind: "folder"; path: string }
  | { kind: "tag"; tag: string }
  | { kind: "image"; path: string }
  /** An image pasted from outside the vault: only its name is kept (its bytes never are). */
  | { kind: "pasted-image"; name: string }
  | { kind: "web"; url: string };

/** The live status's word in the note (chat/answerStatus.ts): "partial" was saved while the answer still arrived (a crash leaves it so). */
export type RecordAnswerStatus = SavedAnswerStatus;

export interface RecordAnswer {
  role: "assistant";
  time: string;
  mode: ChatMode;
  model: string;
  status: RecordAnswerStatus;
  /** A rewrite of a selection, shown as the edit it proposes (AssistantMessage.rewrite). */
  rewrite?: true;
  parts: RecordPart[];
  /** Why a failed answer failed. */
  error?: string;
  /** The notes a vault-QA answer was given. */
  sources?: string[];
  /** Earlier versions of this exchange (question and answer), replaced by Regenerate or Edit; oldest first. */
  earlier: RecordMessage[][];
}

export type RecordPart = RecordText | RecordToolCall;

export interface RecordText {
  type: "text";
  text: string;
}

/** As the banner showed it: "ok", "error", "timeout", "aborted", "invalid-arguments", "unknown-tool", "running". */
export type RecordToolStatus = ToolCallPartStatus;

export interface RecordToolCall {
  type: "tool";
  /** The name the model called. */
  name: string;
  /** The registry id, when it differs from the name. */
  toolId?: string;
  /** The arguments as JSON text. */
  args: string;
  status: RecordToolStatus;
  durationMs?: number;
  /** What the model read, capped (see `MAX_SAVED_RESULT_CHARS`). */
  result?: string;
  /** The note whose edit by this call the user undid. */
  undone?: string;
  /** A failed call's kind and values, so a chat opened again words it in the interface's language. */
  failure?: ToolFailure;
}

/** The tag every chat note carries (a person may add more). */
export const CHAT_NOTE_TAG = "copilot-chat";

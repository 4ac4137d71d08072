import type { ToolFailure } from "../errorMessage";
import type { ContextArtifact } from "../context/PromptContextTypes";
import type { SearchResultForLLM } from "../ports/NoteSearcher";
import type { AnswerNotice, ChainErrorKind, ToolCallStatus } from "../LLMProviders/chainRunner/ChainEvents";
import type { TokenUsage } from "../LLMProviders/tokenUsage";
import type { ChatMode } from "../settings/settingsSchema";
import type { ApprovalDecision, EditProposal, ToolCallProposal } from "../ports/approval";
import type { AssistantStatus } from "./answerStatus";

/**
 * The conversation as the chat view shows it. A message is held as typed parts (text and tool
 * calls), never as text with markers to parse back. State objects are replaced, never changed in
 * place: a message that did not change keeps its identity, so the view skips it.
 */

/** What the user attached to a message, as its chip shows it. */
export interface ContextChip {
  /** Stable: "note:path", "folder:path", "tag:#x", "selection:path#L3-L9", "image:path", "web:url"; a pasted image's is unique to it. */
  id: string;
  kind: "note" | "folder" | "tag" | "selection" | "image" | "web";
  /** Shown on the chip. */
  label: string;
  /** The note, folder or image path; for a tag, the tag; for a web page, its URL; for a pasted image, its name. */
  target: string;
  /** For a selection: the text and its lines (1-based, inclusive). */
  selection?: { text: string; fromLine: number; toLine: number };
  /** For an image pasted or dropped from outside the vault: its bytes (kept in memory only, never written). */
  pasted?: { bytes: Uint8Array };
}

export interface UserMessage {
  id: string;
  role: "user";
  /** What the model reads (L5): the question as typed, or the text a prompt filled in. */
  text: string;
  /**
   * What the user wrote, when the text sent was made from it: "/Summarize · Deep Work" for a prompt
   * run from "/", the instruction as typed for "Edit selection". The bubble, the chat's title and
   * Chat history show this; the model reads `text`. One line (see `shownLine`). Absent: `text` is both.
   */
  shown?: string;
  /** The chips sent with it (the active note included, when it was on). */
  chips: readonly ContextChip[];
  /** What the chips were read into when the message was sent (L3 of its turn). */
  artifacts: readonly ContextArtifact[];
  /**
   * The notes whose Copilot edit the user undid since the question before, told to the model with
   * this question (see undoneEdits.ts). Absent when there were none.
   */
  undoneEdits?: readonly string[];
  /** Epoch ms. */
  sentAt: number;
}

export type ToolCallPartStatus = "running" | ToolCallStatus;

export interface TextPart {
  type: "text";
  /** Stable within the message ("text-1", ...). */
  id: string;
  text: string;
}

export interface ToolCallPart {
  type: "tool-call";
  /** The model's tool call id. */
  id: string;
  toolName: string;
  /** The registry id, when the name was a bound tool's. */
  toolId?: string;
  args: unknown;
  status: ToolCallPartStatus;
  /** Epoch ms, for the running banner's elapsed time. */
  startedAt: number;
  durationMs?: number;
  /** What the model read (capped by the runner). */
  resultText?: string;
  /** The tool's structured output, for the banner (present when status is "ok"). */
  output?: unknown;
  /** A failed call's kind, for the banner to word in the interface's language (not kept in the chat's note). */
  failure?: ToolFailure;
  /** Set once the user took back the edit this call made (its banner's Undo): the note, back as it was. */
  undone?: { path: string };
}

export type AssistantPart = TextPart | ToolCallPart;

export type { AssistantStatus } from "./answerStatus";

export interface AssistantMessage {
  id: string;
  role: "assistant";
  parts: readonly AssistantPart[];
  status: AssistantStatus;
  mode: ChatMode;
  model: string;
  /** The notes a vault-QA answer was given (its sources). */
  sources?: readonly SearchResultForLLM[];
  error?: { kind: ChainErrorKind; message: string };
  /** Set while the runner waits to retry (rate limit, server error). */
  retryNotice?: string;
  /** Lines the chat shows with the answer (e.g. that earlier exchanges were left out of its request): each sentence with its case. */
  notices?: readonly { text: string; case?: AnswerNotice }[];
  usage?: TokenUsage;
  /** Epoch ms. */
  startedAt: number;
  /** Earlier versions of this exchange (its question and answer), replaced by Regenerate or Edit; oldest first. */
  earlier?: readonly (readonly ChatMessage[])[];
  /**
   * The answer is a rewrite of a selection, proposed as an edit (an edit prompt): the chat shows it
   * once, as the edit's diff and banner, not as text as well. Its text stays the answer the
   * conversation keeps. Kept in the note ("rewrite" in the answer's heading), so a chat opened
   * again shows it the same way.
   */
  rewrite?: true;
}

export type ChatMessage = UserMessage | AssistantMessage;

/** An approval the running turn waits for, shown inline in the conversation. */
export type PendingApproval =
  | { id: string; kind: "edit"; proposal: EditProposal; resolve: (decision: ApprovalDecision) => void }
  | { id: string; kind: "tool-call"; proposal: ToolCallProposal; resolve: (decision: ApprovalDecision) => void };

export interface ChatState {
  /** Stable for one conversation; a new chat gets a new id. */
  chatId: string;
  messages: readonly ChatMessage[];
  mode: ChatMode;
  model: string;
  /** The project the chat is in (its name), or null for the whole vault. */
  project: string | null;
  /** Whether a reply is being made (the Send button is Stop meanwhile). */
  running: boolean;
  /** The note open in the editor, attached unless the user removed its chip. */
  activeNote: { path: string; included: boolean } | null;
  /** Chips added for the next message. */
  chips: readonly ContextChip[];
  approvals: readonly PendingApproval[];
  /**
   * Set once per finished answer and per approval asked, for the polite screen-reader
   * announcement: `text` in English, `about` what it tells of (the view says it in the
   * interface's language).
   */
  announcement: { id: number; text: string; about: { answer: AssistantMessage } | { approval: PendingApproval } } | null;
}

/** A message's shown text as one line: the chat note keeps it in the question's heading. */
export function shownLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** What the user's bubble shows of a question: what they wrote. */
export function questionShown(message: UserMessage): string {
  return message.shown ?? message.text;
}

export function isAssistant(message: ChatMessage): message is AssistantMessage {
  return message.role === "assistant";
}

/** An answer's text: its text parts joined (what Copy and "Insert at cursor" take). */
export function answerText(message: AssistantMessage): string {
  return message.parts
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("\n\n");
}

/**
 * What the conversation keeps of a finished answer (L4 of later turns): the text after its last
 * tool call, which is the text of the runner's final step; when nothing follows the last call (a
 * final step that said nothing, an edit applied after the answer), the last text before it, so
 * the history never holds an empty answer. Derived from the parts alone, so a chat loaded from its
 * note carries the same history, byte for byte, as the chat that wrote it.
 */
export function finalAnswerText(message: AssistantMessage): string {
  const texts = (parts: readonly AssistantPart[]) => parts.filter((part): part is TextPart => part.type === "text").map((part) => part.text);
  const lastCall = message.parts.findLastIndex((part) => part.type === "tool-call");
  const after = texts(message.parts.slice(lastCall + 1)).join("");
  return after !== "" ? after : (texts(message.parts).at(-1) ?? "");
}

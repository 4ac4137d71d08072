import type { ImageInput } from "./imageInput";

/**
 * The layered prompt. Every request a runner sends is built from five layers, in this order:
 *
 *   L1 system        the instructions: built-in, the user's own, the enabled tools' guidance
 *   L2 library       artifacts (notes, selections, …) the user attached in EARLIER turns
 *   L3 turn context  artifacts attached in THIS turn, and this turn's tool results
 *   L4 history       the conversation so far (the user's words and the answers)
 *   L5 user          the message being answered
 *
 * L1 and L2 form the system prefix. L1 changes only when settings or enabled tools change, and L2
 * only grows by appending, so the prefix of one request is a byte-for-byte prefix of the next:
 * what providers cache.
 */
export type PromptLayerId = "L1" | "L2" | "L3" | "L4" | "L5";

/** The layers in plain words, as "Show last request" names them to the user. */
export const PROMPT_LAYER_NAMES: Readonly<Record<PromptLayerId, string>> = {
  L1: "Instructions",
  L2: "Earlier attachments",
  L3: "This message's context",
  L4: "Conversation",
  L5: "Your message",
};

export const PROMPT_LAYER_IDS: readonly PromptLayerId[] = ["L1", "L2", "L3", "L4", "L5"];

export type ContextArtifactKind = "note" | "selection" | "web" | "text" | "image";

/** Something the user attached to a message: a note, a selection, a web page, an image, pasted text. */
export interface ContextArtifact {
  /**
   * Stable identity, e.g. "note:Projects/Alpha.md" or "selection:Projects/Alpha.md#L10-L20".
   * Two attachments with the same id and the same content are one artifact.
   */
  id: string;
  kind: ContextArtifactKind;
  /** Shown to the model, e.g. the note's title. */
  title: string;
  /** Vault-relative path or URL where the artifact came from, if any. */
  source?: string;
  /** The text, as it was when attached. */
  content: string;
  /** Images that go with it to models that take images: an image attached, or those a note embeds. */
  images?: readonly ImageInput[];
}

/** One finished exchange of the conversation, as the chat keeps it. */
export interface ConversationTurn {
  /** What the user typed (L5 of that turn), without any attached context. */
  userMessage: string;
  /** What the user attached to it (L3 of that turn, L2 of every later one). */
  attachments: readonly ContextArtifact[];
  /** The final answer. */
  assistantMessage: string;
}

export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
  /** On a user message: the images first attached with it (they stay with it in every later request). */
  images?: readonly ImageInput[];
}

/** Everything one request is made of, layer by layer (see the top of this file). */
export interface PromptEnvelope {
  /** L1, rendered. */
  system: string;
  /** L1 in labelled parts (a project's instructions apart); their text joined is `system`. */
  systemParts?: readonly { text: string; label?: string }[];
  /** L2: earlier turns' attachments, de-duplicated, in order of first attachment. */
  contextLibrary: readonly ContextArtifact[];
  /** L3: this turn's attachments that are not already in L2. */
  turnContext: readonly ContextArtifact[];
  /** L3: this turn's context blocks that are already rendered (e.g. a search payload). */
  turnBlocks: readonly string[];
  /** L4 */
  history: readonly HistoryMessage[];
  /** L5: the user's message as typed. */
  userMessage: string;
}

/** A piece of a message's text and the layer it came from (for the payload debug view). */
export interface PayloadSegment {
  layer: PromptLayerId;
  text: string;
  /** What the piece is, where the layer alone does not say, e.g. "readNote result". */
  label?: string;
}

export interface PayloadToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * A message of the payload with its layers marked. Runners keep the payload in this form and turn
 * it into LangChain messages for each request; the text of a message is its segments, joined.
 */
export interface PayloadMessage {
  role: "system" | "user" | "assistant" | "tool";
  segments: PayloadSegment[];
  /** On a user message: images that go before its text (each named by a line, see describeImage). */
  images?: readonly ImageInput[];
  /** On an assistant message that called tools. */
  toolCalls?: PayloadToolCall[];
  /** On a tool message: the call it answers. */
  toolCallId?: string;
}

/** The text of a payload message. */
export function payloadText<Message extends { segments: readonly PayloadSegment[] }>(message: Message): string {
  return message.segments.map((segment) => segment.text).join("");
}

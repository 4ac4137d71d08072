import { redactSecrets } from "../settings/secrets";
import { describeImage, estimateImageTokens, withoutData, type ImageDescription } from "./imageInput";
import { PROMPT_LAYER_IDS, PROMPT_LAYER_NAMES, payloadText, type PayloadMessage, type PromptLayerId } from "./PromptContextTypes";

/** A message as the recorder keeps it: its images by name, size and type, never their bytes. */
export type RecordedPayloadMessage = Omit<PayloadMessage, "images"> & { images?: ImageDescription[] };

/** A message handed to the recorder: as a runner sends it (images with their bytes), or as recorded. */
type MessageToRecord = Omit<PayloadMessage, "images"> & { images?: readonly ImageDescription[] };

/** One request as it was sent, layers marked, secrets redacted: what the debug view shows. */
export interface RecordedPromptPayload {
  /** "chat", "vault-qa" or "agent". */
  runner: string;
  model: string;
  /** Which request of the run this was (1 for the first; the agent sends one per step). */
  step: number;
  recordedAt: number;
  /** The model-facing names of the tools bound to the request. */
  toolNames: string[];
  messages: RecordedPayloadMessage[];
  /** A rough count (characters / 4, images by their pixels): LangChain's own counter needs the network. */
  estimatedTokens: number;
  /** The same estimate layer by layer (a tool call's arguments count in L3, with the agent's steps). */
  layerTokens: Record<PromptLayerId, number>;
}

export type PayloadInput = Omit<RecordedPromptPayload, "recordedAt" | "estimatedTokens" | "layerTokens" | "messages"> & {
  messages: readonly MessageToRecord[];
};

/**
 * Keeps the last payload a runner sent. One recorder per plugin (or CLI run), handed to the
 * runners; `secretValues` is asked at each recording, so a key changed in settings is redacted too.
 */
export class PromptPayloadRecorder {
  private last: RecordedPromptPayload | null = null;
  private readonly listeners = new Set<(payload: RecordedPromptPayload) => void>();

  constructor(
    private readonly secretValues: () => Iterable<string> = () => [],
    private readonly now: () => number = Date.now,
  ) {}

  record(input: PayloadInput): RecordedPromptPayload {
    const secrets = [...this.secretValues()];
    const redact = (text: string): string => redactSecrets(text, secrets);
    const messages = input.messages.map(({ images, ...message }): RecordedPayloadMessage => ({
      ...message,
      ...(images ? { images: images.map(withoutData) } : {}),
      segments: message.segments.map((segment) => ({ ...segment, text: redact(segment.text) })),
      ...(message.toolCalls
        ? { toolCalls: message.toolCalls.map((call) => ({ ...call, args: JSON.parse(redact(JSON.stringify(call.args))) as Record<string, unknown> })) }
        : {}),
    }));
    const characters = messages.reduce((sum, message) => sum + payloadText(message).length, 0);
    const imageTokens = messages.reduce((sum, message) => sum + (message.images ?? []).reduce((total, image) => total + estimateImageTokens(image), 0), 0);
    const payload: RecordedPromptPayload = {
      ...input,
      messages,
      recordedAt: this.now(),
      estimatedTokens: estimateTokens(characters) + imageTokens,
      layerTokens: layerTokensOf(messages),
    };
    this.last = payload;
    for (const listener of this.listeners) listener(payload);
    return payload;
  }

  getLast(): RecordedPromptPayload | null {
    return this.last;
  }

  /** Told after every recording (the debug view refreshes). */
  onRecord(listener: (payload: RecordedPromptPayload) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Characters / 4, rounded up: no tokenizer can be loaded offline, and this errs on the large side for English. */
function estimateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

function layerTokensOf(messages: readonly RecordedPayloadMessage[]): Record<PromptLayerId, number> {
  const characters: Record<PromptLayerId, number> = { L1: 0, L2: 0, L3: 0, L4: 0, L5: 0 };
  const images: Record<PromptLayerId, number> = { L1: 0, L2: 0, L3: 0, L4: 0, L5: 0 };
  for (const message of messages) {
    for (const segment of message.segments) characters[segment.layer] += segment.text.length;
    for (const call of message.toolCalls ?? []) characters.L3 += call.name.length + JSON.stringify(call.args).length;
    // A message's images count with its first piece: the history's (L4) or this turn's context (L3).
    const layer = message.segments[0]?.layer ?? "L3";
    for (const image of message.images ?? []) images[layer === "L5" ? "L3" : layer] += estimateImageTokens(image);
  }
  return Object.fromEntries(PROMPT_LAYER_IDS.map((layer) => [layer, estimateTokens(characters[layer]) + images[layer]])) as Record<PromptLayerId, number>;
}

/** The lines that stand for a message's images in the payload view: name, size, bytes; never the base64. */
export function imageLines(message: RecordedPayloadMessage): string[] {
  return (message.images ?? []).map(describeImage);
}

/**
 * The payload as plain text with a marker before each layer's piece, e.g.
 * `──── user · L3 This turn's context ────`, for a debug view or a log.
 */
export function formatLayeredPayload(payload: RecordedPromptPayload): string {
  const lines = [`model ${payload.model} · ${payload.runner} · request ${payload.step} · ~${payload.estimatedTokens} tokens`];
  if (payload.toolNames.length > 0) lines.push(`tools: ${payload.toolNames.join(", ")}`);
  for (const message of payload.messages) {
    if (message.images?.length) lines.push(`──── ${message.role} · images ────`, ...imageLines(message));
    for (const segment of message.segments) {
      const label = segment.label ? ` · ${segment.label}` : "";
      lines.push(`──── ${message.role} · ${segment.layer} ${PROMPT_LAYER_NAMES[segment.layer]}${label} ────`, segment.text);
    }
    for (const call of message.toolCalls ?? []) lines.push(`──── ${message.role} · tool call ${call.id} ────`, `${call.name} ${JSON.stringify(call.args)}`);
  }
  return lines.join("\n");
}

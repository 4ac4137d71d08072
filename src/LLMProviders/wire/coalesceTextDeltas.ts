import type { SseEvent } from "../../net/sseEvents";
import { contentTemplate, textInTemplate, type ContentTemplate } from "./contentTemplate";

/** A chat-completions stream chunk, as far as merging reads it. */
interface CompletionChunk {
  choices: Array<{ index: number; delta: { content: string; role?: string } }>;
  [field: string]: unknown;
}

/**
 * The most text one merged event carries: a run longer than this goes on in a new event. The
 * runner checks the longest-answer limit after each chunk, so a stopped answer keeps at most
 * this much past the limit (about 256 tokens); a 50k-token answer still comes in a few hundred
 * chunks rather than 50,000.
 */
export const MAX_MERGED_TEXT_CHARACTERS = 1024;

/**
 * Merges runs of chat-completions events that carry only text into one event per run (of at
 * most MAX_MERGED_TEXT_CHARACTERS): the `content` of each choice joined, everything else as the
 * run's first event has it. LangChain's
 * stream machinery costs the same for every chunk it is handed, whatever its size, so a read that
 * brought hundreds of one-token deltas costs hundreds of times what the same text in one chunk
 * costs. Only events that differ in nothing but their text are merged (same envelope, same
 * choices, no role change); anything else (tool-call deltas, a finish reason, usage, reasoning,
 * an error, `[DONE]`, an event that is not JSON) passes through exactly as it came and ends the
 * run, so the order of what arrives is kept and tool-call deltas are never touched.
 */
export function coalesceTextDeltas(events: readonly SseEvent[]): SseEvent[] {
  if (events.length < 2) return [...events];
  const result: SseEvent[] = [];
  let run: Run | undefined;
  const endRun = () => {
    if (run) result.push(mergedEvent(run));
    run = undefined;
  };
  for (const event of events) {
    // Most text deltas of a run are the run's last one with other text: told without parsing.
    const text = run?.template && event.event === undefined ? textInTemplate(event.data, run.template) : undefined;
    if (run && text !== undefined && run.characters + text.length <= MAX_MERGED_TEXT_CHARACTERS) {
      run.texts[0]!.push(text);
      run.characters += text.length;
      continue;
    }
    const chunk = event.event === undefined ? textOnlyChunk(event.data) : undefined;
    if (!chunk) {
      endRun();
      result.push(event);
      continue;
    }
    const characters = chunk.choices.reduce((sum, choice) => sum + choice.delta.content.length, 0);
    if (run && sameEnvelope(run.chunk, chunk) && continuesRun(run.chunk, chunk) && run.characters + characters <= MAX_MERGED_TEXT_CHARACTERS) {
      chunk.choices.forEach((choice, position) => run!.texts[position]!.push(choice.delta.content));
      run.characters += characters;
    } else {
      endRun();
      run = { first: event, chunk, texts: chunk.choices.map((choice) => [choice.delta.content]), characters };
    }
    run.template = chunk.choices.length === 1 ? contentTemplate(event.data, chunk.choices[0]!.delta.content) : undefined;
  }
  endRun();
  return result;
}

/** Text deltas being merged: the first event as it came and parsed, and the text of each choice so far. */
interface Run {
  first: SseEvent;
  chunk: CompletionChunk;
  texts: string[][];
  characters: number;
  /** The data of the run's last parsed event around its text, when it has one choice. */
  template?: ContentTemplate | undefined;
}

/** The first event as it came when nothing was merged into it, else the first chunk with the joined text. */
function mergedEvent(run: Run): SseEvent {
  if (run.texts.every((texts) => texts.length === 1)) return run.first;
  const choices = run.chunk.choices.map((choice, position) => ({ ...choice, delta: { ...choice.delta, content: run.texts[position]!.join("") } }));
  return { ...(run.first.event !== undefined ? { event: run.first.event } : {}), data: JSON.stringify({ ...run.chunk, choices }) };
}

/** The chunk when the event's data is a chat-completions chunk whose choices carry only text. */
function textOnlyChunk(data: string): CompletionChunk | undefined {
  // Most events that are not text deltas are told without parsing them.
  if (!data.startsWith("{") || !data.includes('"content"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.choices) || parsed.choices.length === 0) return undefined;
  if (parsed.usage !== undefined && parsed.usage !== null) return undefined;
  return parsed.choices.every(isTextChoice) ? (parsed as CompletionChunk) : undefined;
}

/** A choice whose delta holds text (and maybe its role), and nothing else that is set: no finish reason, no tool calls, no log probabilities. */
function isTextChoice(choice: unknown): boolean {
  if (!isRecord(choice) || typeof choice.index !== "number" || !isRecord(choice.delta)) return false;
  for (const [field, value] of Object.entries(choice)) {
    if (field !== "index" && field !== "delta" && value !== null && value !== undefined) return false;
  }
  const delta = choice.delta;
  if (typeof delta.content !== "string") return false;
  for (const [field, value] of Object.entries(delta)) {
    if (field === "content") continue;
    if (field === "role" ? typeof value !== "string" : value !== null && value !== undefined) return false;
  }
  return true;
}

/** The same fields beside the choices, with the same values (OpenAI's `obfuscation` padding aside: it differs in every chunk and means nothing). */
function sameEnvelope(first: CompletionChunk, next: CompletionChunk): boolean {
  const fields = (chunk: CompletionChunk) => Object.keys(chunk).filter((field) => field !== "choices" && field !== "obfuscation");
  const firstFields = fields(first);
  const nextFields = fields(next);
  if (firstFields.length !== nextFields.length) return false;
  return firstFields.every((field) => {
    const value = first[field];
    const other = next[field];
    if (value === other) return true;
    return typeof value === "object" && value !== null && typeof other === "object" && other !== null && JSON.stringify(value) === JSON.stringify(other);
  });
}

/** Same choices in the same order, and no new role: the next chunk only adds text. */
function continuesRun(first: CompletionChunk, next: CompletionChunk): boolean {
  if (first.choices.length !== next.choices.length) return false;
  return next.choices.every((choice, position) => {
    const earlier = first.choices[position]!;
    return choice.index === earlier.index && (choice.delta.role === undefined || choice.delta.role === earlier.delta.role);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

import type { SseEvent } from "../../net/sseEvents";

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
  let run: { first: SseEvent; chunk: CompletionChunk; envelope: string; texts: string[][]; characters: number } | undefined;
  const endRun = () => {
    if (!run) return;
    if (run.texts[0]!.length === 1) result.push(run.first);
    else {
      const choices = run.chunk.choices.map((choice, position) => ({ ...choice, delta: { ...choice.delta, content: run!.texts[position]!.join("") } }));
      result.push({ ...(run.first.event !== undefined ? { event: run.first.event } : {}), data: JSON.stringify({ ...run.chunk, choices }) });
    }
    run = undefined;
  };
  for (const event of events) {
    const chunk = event.event === undefined ? textOnlyChunk(event.data) : undefined;
    if (!chunk) {
      endRun();
      result.push(event);
      continue;
    }
    const envelope = envelopeOf(chunk);
    const characters = chunk.choices.reduce((sum, choice) => sum + choice.delta.content.length, 0);
    if (run && run.envelope === envelope && continuesRun(run.chunk, chunk) && run.characters + characters <= MAX_MERGED_TEXT_CHARACTERS) {
      chunk.choices.forEach((choice, position) => run!.texts[position]!.push(choice.delta.content));
      run.characters += characters;
      continue;
    }
    endRun();
    run = { first: event, chunk, envelope, texts: chunk.choices.map((choice) => [choice.delta.content]), characters };
  }
  endRun();
  return result;
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

/** Everything but the choices (and OpenAI's `obfuscation` padding, which differs in every chunk and means nothing). */
function envelopeOf(chunk: CompletionChunk): string {
  const { choices: _choices, obfuscation: _padding, ...envelope } = chunk;
  return JSON.stringify(envelope);
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

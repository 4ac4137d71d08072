import { emptyUsage, type TokenUsage } from "../LLMProviders/tokenUsage";
import { requireEventStream } from "../LLMProviders/wire/unexpectedBody";
import { throwIfFailed } from "../net/httpStatusError";
import { readSseEvents } from "../net/sseEvents";
import type { FetchLike } from "../ports/FetchLike";
import { completionPieces } from "./completionStream";
import type { CompletionRequest } from "./completionRequest";
import { tidyCompletion } from "./tidyCompletion";

/** A completion as it arrived: the text to show after the cursor, and what it cost in tokens. */
export interface CompletionResult {
  text: string;
  usage: TokenUsage;
}

/**
 * Sends one completion request and reads its stream. `onText` sees the tidied text so far after
 * each piece (for ghost text that grows as it arrives). The signal aborts the request: the
 * connection is closed at once, so a server that bills by generated tokens stops generating.
 * Throws HttpStatusError for a refused request (classifyModelError reads it) and the signal's
 * reason when aborted.
 */
export async function sendCompletion(request: CompletionRequest, context: { before: string; after: string }, fetch: FetchLike, signal: AbortSignal, onText?: (text: string) => void): Promise<CompletionResult> {
  const response = await fetch(request.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...request.headers },
    body: JSON.stringify(request.body),
    signal,
  });
  await throwIfFailed(response, errorOf);
  await requireEventStream(response);
  let raw = "";
  let usage = emptyUsage();
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  for await (const piece of completionPieces(request, readSseEvents(body))) {
    if ("usage" in piece) {
      usage = piece.usage;
      continue;
    }
    raw += piece.text;
    onText?.(tidyCompletion(raw, context.before, context.after));
    // The server may ignore the stop sequence: a paragraph's end is the end of the suggestion.
    if (raw.trimStart().includes("\n\n")) break;
  }
  return { text: tidyCompletion(raw, context.before, context.after), usage };
}

/** Every provider's error body keeps its message at `error.message` (OpenAI, Anthropic, Gemini alike). */
function errorOf(body: unknown): { message: string } {
  const error = (body as { error?: { message?: unknown } | string } | null)?.error;
  if (typeof error === "string") return { message: error };
  return { message: typeof error?.message === "string" ? error.message : "" };
}

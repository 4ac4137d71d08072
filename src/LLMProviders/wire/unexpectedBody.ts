import type { FetchLike } from "../../ports/FetchLike";
import { reframedEventStream } from "./reframedEventStream";

/** How much of a wrong answer a message quotes. */
const SAMPLE_CHARACTERS = 200;

/**
 * A model server answered a streamed request with success but not with an event stream (a
 * proxy's or captive portal's HTML page, a JSON answer from a server that ignores `stream`, an
 * empty body): said with what arrived, never taken for a network failure or an empty answer.
 */
export class UnexpectedBodyError extends Error {
  constructor(status: number, contentType: string, what: string, sample: string) {
    const type = contentType.split(";")[0]?.trim() || "no content type";
    super(`answered ${status} with ${type}, ${what}${sample ? `: ${sample}` : ""}`);
    this.name = "UnexpectedBodyError";
  }
}

/** Text as a message may quote it: control characters gone, spaces collapsed, at most 200 characters (whole code points). */
export function quotedSample(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/\s+/g, " ").trim();
  return Array.from(plain).slice(0, SAMPLE_CHARACTERS).join("");
}

function isEventStream(response: Response): boolean {
  return /^\s*text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
}

/** The first characters of a body, reading no further (a page that never ends is not waited for). */
async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < SAMPLE_CHARACTERS * 4) {
      const piece = await reader.read();
      if (piece.done) break;
      text += decoder.decode(piece.value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

/** Throws UnexpectedBodyError when a successful answer says it is not an event stream (an answer without a content type is read as one). */
export async function requireEventStream(response: Response): Promise<void> {
  const contentType = response.headers.get("content-type");
  if (!response.ok || contentType === null || isEventStream(response)) return;
  throw new UnexpectedBodyError(response.status, contentType, "not an event stream", quotedSample(await bodyStart(response)));
}

/**
 * The body, handed on unchanged, with what the stream held: how many `data:` lines, and its
 * first characters. `failWhenEmpty` makes a stream that ends without any event fail with an
 * UnexpectedBodyError instead of ending quietly (for a client that would take it as an empty answer).
 */
export function watchedEventStream(response: Response, failWhenEmpty: boolean): { body: ReadableStream<Uint8Array>; hadEvents: () => boolean; emptyError: () => UnexpectedBodyError } {
  const decoder = new TextDecoder();
  let start = "";
  let events = false;
  const emptyError = () => new UnexpectedBodyError(response.status, response.headers.get("content-type") ?? "", "but no event arrived", quotedSample(start));
  const watch = new TransformStream<Uint8Array, Uint8Array>({
    transform(piece, controller) {
      if (!events) {
        start += decoder.decode(piece, { stream: true });
        events = /(^|[\r\n])data:/.test(start);
        if (start.length > SAMPLE_CHARACTERS * 4) start = start.slice(0, SAMPLE_CHARACTERS * 4);
      }
      controller.enqueue(piece);
    },
    flush(controller) {
      if (!events && failWhenEmpty) controller.error(emptyError());
    },
  });
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  return { body: body.pipeThrough(watch), hadEvents: () => events, emptyError };
}

/**
 * The fetch the OpenAI client is given. That client reads event streams without checking what it
 * got (it takes an HTML page or an empty body for an answer with no text): a streamed request's
 * successful answer must be an event stream holding at least one event, else it fails with
 * UnexpectedBodyError saying what arrived. The stream it reads is our SSE reader's, written again
 * one event per piece with each read's text deltas merged (reframedEventStream): linear in an
 * event's size, bounded by MAX_SSE_EVENT_CHARACTERS, and far fewer chunks for LangChain to handle.
 */
export function eventStreamFetch(fetch: FetchLike): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok || typeof init?.body !== "string" || !/"stream"\s*:\s*true/.test(init.body)) return response;
    await requireEventStream(response);
    const { body } = watchedEventStream(response, true);
    return new Response(reframedEventStream(body), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

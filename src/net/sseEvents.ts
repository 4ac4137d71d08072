import { createParser } from "eventsource-parser";

/** One server-sent event: its `event:` name (when it had one) and its joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * The most characters one event may hold, its `data:` lines and the line still arriving
 * together. One event carries one piece of an answer, or at most one tool call's arguments when
 * a server sends a call whole: the longest answers models write today are about 128k tokens
 * (half a million characters), and 16 Mi characters is 32 times that, so a note of several
 * megabytes rewritten in one event still fits. Past it the event is not a model's: a server that
 * never ends its line would grow the buffer until the app runs out of memory, and each event is
 * held several times over while it is decoded and parsed.
 */
export const MAX_SSE_EVENT_CHARACTERS = 16 * 1024 * 1024;

/** An event grew past the limit: the stream is stopped (the connection closed) with this error. */
export class SseEventTooLargeError extends Error {
  /** What was sent, for a message that names the server: "an event of more than … characters, …". */
  readonly what: string;

  constructor(readonly limit: number) {
    const what = `an event of more than ${limit.toLocaleString("en-US")} characters, more than any answer or tool call holds`;
    super(`The server sent ${what}; the stream was stopped.`);
    this.name = "SseEventTooLargeError";
    this.what = what;
  }
}

export interface SseReadOptions {
  /** MAX_SSE_EVENT_CHARACTERS unless given. */
  maxEventCharacters?: number;
}

/**
 * Reads a `text/event-stream` body as the SSE format defines it (lines end in LF, CRLF or CR; an
 * empty line ends an event; `data:` lines join with "\n"; comments, `id:`, `retry:` and unknown
 * fields are skipped), and yields the events each read of the body completed, together: what the
 * network delivered at once can be handled at once. The parser (`eventsource-parser`, which the
 * MCP client uses too) keeps an event's pieces until its line ends, so a large event costs time in
 * proportion to its size, not its square. An event the stream ends in the middle of is dropped,
 * as a browser drops it: the caller notices the missing end of the answer by its own protocol. An
 * event past `maxEventCharacters` throws SseEventTooLargeError and cancels the body.
 */
export async function* readSseEventBatches(body: ReadableStream<Uint8Array>, options: SseReadOptions = {}): AsyncGenerator<SseEvent[]> {
  const limit = options.maxEventCharacters ?? MAX_SSE_EVENT_CHARACTERS;
  let batch: SseEvent[] = [];
  let tooLarge = false;
  const parser = createParser({
    onEvent: ({ event, data }) => {
      // The parser bounds an event still arriving; one that arrived whole in a single read is measured here.
      if (data.length > limit) tooLarge = true;
      else batch.push(event !== undefined ? { event, data } : { data });
    },
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded") tooLarge = true;
    },
    maxBufferSize: limit,
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const piece = await reader.read();
      if (piece.done) break;
      parser.feed(decoder.decode(piece.value, { stream: true }));
      if (tooLarge) throw new SseEventTooLargeError(limit);
      if (batch.length > 0) {
        const events = batch;
        batch = [];
        yield events;
      }
    }
    ended = true;
  } finally {
    // Stopped early (an event too large, the consumer's own limit, a stop): nobody will read the
    // rest, so the connection goes.
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The events of a `text/event-stream` body one by one (see readSseEventBatches). */
export async function* readSseEvents(body: ReadableStream<Uint8Array>, options: SseReadOptions = {}): AsyncGenerator<SseEvent> {
  for await (const events of readSseEventBatches(body, options)) yield* events;
}

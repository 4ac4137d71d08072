import { readSseEventBatches, type SseEvent, type SseReadOptions } from "../../net/sseEvents";
import { coalesceTextDeltas } from "./coalesceTextDeltas";

/**
 * A chat-completions event stream read with our SSE reader and written again for the OpenAI
 * client, which parses it once more: one piece per event, and the text deltas of each read
 * merged (coalesceTextDeltas). The client's own splitter copies what is left of a piece at every
 * event and rescans its whole buffer at every piece, so a read of many events, or one event in
 * many pieces, cost it the square of their size; one event per piece costs it the event's size.
 * An event past the reader's limit errors the stream with SseEventTooLargeError.
 */
export function reframedEventStream(body: ReadableStream<Uint8Array>, options: SseReadOptions = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = readSseEventBatches(body, options);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        for (const event of coalesceTextDeltas(next.value)) controller.enqueue(encoder.encode(eventText(event)));
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    // Nothing is read ahead of the client: a stopped answer reads no further.
    { highWaterMark: 0 },
  );
}

/** An event as the SSE format writes it: each line of its data a `data:` line, then an empty line. */
export function eventText(event: SseEvent): string {
  const name = event.event !== undefined ? `event: ${event.event}\n` : "";
  return `${name}data: ${event.data.split("\n").join("\ndata: ")}\n\n`;
}

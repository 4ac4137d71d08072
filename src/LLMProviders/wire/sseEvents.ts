/** One server-sent event: its `event:` name (when it had one) and its joined `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body event by event, as the SSE format defines it: lines end in LF,
 * CRLF or CR; an empty line ends an event; `data:` lines join with "\n"; comments (":") and
 * unknown fields are skipped. An event the stream ends in the middle of is dropped, as a browser
 * would drop it: the caller notices the missing end of the answer by its own protocol.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let event: string | undefined;
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let lineEnd: number;
      while ((lineEnd = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR at the very end may be the first half of a CRLF still on its way.
        if (buffer[lineEnd] === "\r" && lineEnd === buffer.length - 1) break;
        const line = buffer.slice(0, lineEnd);
        buffer = buffer.slice(lineEnd + (buffer.startsWith("\r\n", lineEnd) ? 2 : 1));
        if (line === "") {
          if (data.length > 0) yield { ...(event !== undefined ? { event } : {}), data: data.join("\n") };
          event = undefined;
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "event") event = value;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A non-2xx answer from a model server, shaped as classifyModelError reads it: `status`, the
 * response `headers` (for Retry-After) and `error.message` (the server's own words).
 */
export class HttpStatusError extends Error {
  readonly error: { message: string; type?: string };

  constructor(
    readonly status: number,
    readonly headers: Headers,
    serverMessage: string,
    type?: string,
  ) {
    super(`HTTP ${status}${serverMessage ? `: ${serverMessage}` : ""}`);
    this.name = "HttpStatusError";
    this.error = { message: serverMessage, ...(type ? { type } : {}) };
  }
}

/** What a provider's error body says, read by its own rules. */
export interface ServerError {
  message: string;
  type?: string;
  /** A status that says more than the HTTP one (Gemini answers a bad key with 400). */
  status?: number;
  /** A wait the body asks for (Gemini's RetryInfo), used when there is no Retry-After header. */
  retryAfterSeconds?: number;
}

/** Throws an HttpStatusError for a failed response, with the message its JSON body gives. */
export async function throwIfFailed(response: Response, messageOf: (body: unknown) => ServerError): Promise<void> {
  if (response.ok) return;
  const text = await response.text().catch(() => "");
  let parsed: ServerError = { message: text.trim().slice(0, 500) };
  try {
    const fromBody = messageOf(JSON.parse(text));
    if (fromBody.message) parsed = fromBody;
  } catch {
    // Not JSON: the text itself is the message.
  }
  const headers = new Headers(response.headers);
  if (parsed.retryAfterSeconds !== undefined && !headers.has("retry-after")) headers.set("retry-after", String(parsed.retryAfterSeconds));
  throw new HttpStatusError(parsed.status ?? response.status, headers, parsed.message, parsed.type);
}

/**
 * The stream ended before the protocol's own end (Anthropic's `message_stop`, a Gemini finish
 * reason): the connection was cut. Carries the code classifyModelError reads as "connection
 * closed by the server", so a cut before anything arrived is retried and one after is reported
 * as an interrupted answer with its part kept.
 */
export class StreamCutError extends Error {
  readonly code = "UND_ERR_SOCKET";

  constructor(what: string) {
    super(`The stream ended before ${what}.`);
    this.name = "StreamCutError";
  }
}

/** An event whose data is not the JSON the format promises: said, never skipped (it may hold part of the answer). */
export class MalformedEventError extends Error {
  constructor(data: string) {
    super(`The model server sent an event that is not JSON: ${data.slice(0, 80)}`);
    this.name = "MalformedEventError";
  }
}

import type { FetchLike } from "../ports/FetchLike";

/** One plain request: the whole answer is read before it is handed back. */
export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /**
   * Read at most this many bytes of the answer and keep them as `bytes` (a page of any size must
   * not fill memory): what lies past them is not read, and `truncated` says there was more.
   */
  maxBytes?: number;
  /** "manual": a redirect comes back as it is (its status and Location), for the caller to check and follow. */
  redirect?: "follow" | "manual";
}

export interface HttpResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body as UTF-8 (invalid bytes replaced); with `maxBytes`, of the bytes read. */
  text: string;
  /** With `maxBytes`: the bytes read, for a caller that decodes another charset. */
  bytes?: Uint8Array;
  /** With `maxBytes`: the answer went on past them. */
  truncated?: boolean;
}

/**
 * Plain (non-streaming) HTTP for the tools (web search, transcripts): a helper over the fetch port,
 * so each platform implements one thing. An HTTP error status is an answer, not a throw (the
 * caller reads `status`); a network failure or an abort rejects.
 */
export interface PlainHttp {
  request(request: HttpRequest): Promise<HttpResponse>;
}

export function plainHttp(fetch: FetchLike): PlainHttp {
  return {
    async request({ url, method = "GET", headers, body, signal, maxBytes, redirect }) {
      const response = await fetch(url, {
        method,
        ...(headers ? { headers } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(signal ? { signal } : {}),
        ...(redirect ? { redirect } : {}),
      });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name.toLowerCase()] = value;
      });
      if (maxBytes === undefined) return { status: response.status, headers: responseHeaders, text: await response.text() };
      const { bytes, truncated } = await readAtMost(response, maxBytes);
      return { status: response.status, headers: responseHeaders, text: new TextDecoder().decode(bytes), bytes, truncated };
    },
  };
}

/** The first `limit` bytes of a body; the rest is left unread and the body cancelled, so the connection goes. */
async function readAtMost(response: Response, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.byteLength > limit) {
        chunks.push(value.subarray(0, limit - length));
        length = limit;
        truncated = true;
        break;
      }
      chunks.push(value);
      length += value.byteLength;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

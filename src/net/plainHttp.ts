import type { FetchLike } from "../ports/FetchLike";

/** One plain request: the whole answer is read before it is handed back. */
export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  text: string;
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
    async request({ url, method = "GET", headers, body, signal }) {
      const response = await fetch(url, { method, ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name.toLowerCase()] = value;
      });
      return { status: response.status, headers: responseHeaders, text: await response.text() };
    },
  };
}

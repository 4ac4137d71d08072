/**
 * Plain (non-streaming) HTTP for tools: web search, transcripts. In Obsidian it is `requestUrl`
 * (no CORS limits, works on mobile); in the CLI and tests it is Node's fetch.
 */
export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface HttpPort {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** An HttpPort on the global `fetch` (Node 18+, browsers). Never throws for HTTP error statuses. */
export const fetchHttp: HttpPort = {
  async request({ url, method = "GET", headers, body, signal }) {
    const response = await fetch(url, { method, headers, body, signal });
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      responseHeaders[key.toLowerCase()] = value;
    });
    return { status: response.status, headers: responseHeaders, text: await response.text() };
  },
};

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

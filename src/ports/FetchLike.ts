/**
 * The one HTTP port: every request the core sends (model and embeddings servers, MCP over HTTP,
 * the tools' web requests through `plainHttp`) goes through the `fetch` handed in at the wiring
 * point. Node's global fetch in the CLI and tests; in Obsidian a CORS-free one (see
 * src/net/obsidianFetch.ts: Node's http on desktop, where answers stream, `requestUrl` on mobile),
 * since a local model server without CORS headers refuses the browser's own fetch.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The URL string of a fetch input. */
export function fetchInputUrl(input: string | URL | Request): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** Headers of a fetch call as a plain lower-case record. */
export function headersRecord(headers: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  new Headers(headers).forEach((value, key) => {
    record[key.toLowerCase()] = value;
  });
  return record;
}

/** A request body the model client sends (always text: JSON) as a string. */
export async function bodyText(body: BodyInit | null | undefined): Promise<string | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string") return body;
  return new Response(body).text();
}

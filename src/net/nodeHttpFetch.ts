import { abortReason } from "../ports/timers";
import { bodyText, fetchInputUrl, headersRecord, type FetchLike } from "../ports/FetchLike";

/**
 * The parts of Node's `http` / `https` modules this fetch uses, typed here so that the file
 * imports nothing from Node: on desktop Obsidian hands the real modules in (see obsidianFetch.ts),
 * and mobile never loads them.
 */
export interface NodeIncomingMessage {
  statusCode?: number;
  statusMessage?: string;
  headers: Record<string, string | string[] | undefined>;
  complete: boolean;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  destroy(error?: Error): unknown;
}

export interface NodeClientRequest {
  on(event: "error", listener: (error: Error) => void): unknown;
  end(body?: string): unknown;
  destroy(error?: Error): unknown;
}

export interface NodeHttpModule {
  request(url: URL, options: { method: string; headers: Record<string, string> }, callback: (response: NodeIncomingMessage) => void): NodeClientRequest;
}

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** As many redirects as browsers and Node's fetch follow before they give up. */
const MAX_REDIRECTS = 20;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A `fetch` over Node's http client: no browser origin, so no CORS preflight for a local model
 * server to refuse, and the response body is a stream that hands each piece on as it arrives
 * (what the model client needs for server-sent events). Aborting the signal destroys the
 * connection, so the server sees the client go. Redirects are followed as fetch follows them
 * (the tools' web requests reach it too): 303, and 301/302 after a POST, become a GET without
 * the body; the authorization headers do not go to another origin.
 */
export function createNodeHttpFetch(modules: { http: NodeHttpModule; https: NodeHttpModule }): FetchLike {
  return async (input, init = {}) => {
    let url = new URL(fetchInputUrl(input));
    let method = (init.method ?? "GET").toUpperCase();
    let body = await bodyText(init.body);
    const headers = headersRecord(init.headers);
    const signal = init.signal ?? undefined;
    for (let redirects = 0; ; redirects++) {
      const response = await requestOnce(modules, url, method, headers, body, signal);
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null || init.redirect === "manual") return response;
      await response.body?.cancel();
      if (init.redirect === "error") throw new TypeError("fetch failed", { cause: new Error(`redirected to ${location}, and redirects were refused`) });
      if (redirects >= MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new Error(`more than ${MAX_REDIRECTS} redirects`) });
      const next = new URL(location, url);
      if ((response.status === 303 && method !== "GET" && method !== "HEAD") || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) delete headers[name];
      }
      if (next.origin !== url.origin) for (const name of ["authorization", "cookie", "proxy-authorization"]) delete headers[name];
      url = next;
    }
  };
}

function requestOnce(
  modules: { http: NodeHttpModule; https: NodeHttpModule },
  url: URL,
  method: string,
  requestHeaders: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new TypeError(`Cannot fetch ${url.protocol} URLs`));
  const transport = url.protocol === "https:" ? modules.https : modules.http;
  const headers = { ...requestHeaders };
  if (body !== undefined) headers["content-length"] = String(new TextEncoder().encode(body).byteLength);
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    let failStream: ((error: Error) => void) | undefined;
    const onAbort = () => {
      const reason = abortReason(signal);
      request.destroy(reason);
      failStream?.(reason);
      reject(reason);
    };
    const request = transport.request(url, { method, headers }, (incoming) => {
      const status = incoming.statusCode ?? 0;
      const stream = NO_BODY_STATUSES.has(status) || method === "HEAD" ? null : bodyStream(incoming, signal, onAbort, (fail) => (failStream = fail));
      if (!stream) signal?.removeEventListener("abort", onAbort);
      resolve(new Response(stream, { status, statusText: incoming.statusMessage ?? "", headers: responseHeaders(incoming.headers) }));
    });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new TypeError("fetch failed", { cause: error }));
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    request.end(body);
  });
}

function bodyStream(
  incoming: NodeIncomingMessage,
  signal: AbortSignal | undefined,
  onAbort: () => void,
  exposeFail: (fail: (error: Error) => void) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        if (error) controller.error(error);
        else controller.close();
      };
      exposeFail((error) => finish(error));
      // Each read as it came: the event-stream readers after this take a read of any size in
      // time linear in it (see src/net/sseEvents.ts and wire/reframedEventStream.ts).
      incoming.on("data", (chunk) => {
        if (!settled) controller.enqueue(new Uint8Array(chunk));
      });
      incoming.on("end", () => finish());
      incoming.on("error", (error) => finish(new TypeError("terminated", { cause: error })));
      // A connection that closes before the body ended was cut off, not finished.
      incoming.on("close", () => {
        if (!incoming.complete) finish(new TypeError("terminated", { cause: Object.assign(new Error("other side closed"), { code: "ECONNRESET" }) }));
      });
    },
    cancel() {
      incoming.destroy();
    },
  });
}

function responseHeaders(headers: NodeIncomingMessage["headers"]): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) result.append(name, item);
    else if (value !== undefined) result.set(name, value);
  }
  return result;
}

import type { NodeClientRequest, NodeHttpModule, NodeIncomingMessage } from "../../src/net/nodeHttpFetch";

/**
 * Node's `http`/`https` as far as src/net/nodeHttpFetch.ts uses them, for the demo page:
 * each request goes to the demo server's `/proxy`, which forwards it to the model server (and
 * nowhere else) and streams the answer back. The body arrives here piece by piece and is handed on
 * as `data` events as it comes; `destroy()` aborts the fetch, and the server then cuts the
 * upstream connection. A connection failure the proxy reports becomes the request's `error`
 * event with Node's code (ECONNREFUSED, …), as Node's http would raise it.
 */
export const PROXY_PATH = "/proxy";
/** The header the demo server wants on every request that writes or proxies (another site cannot set it). */
export const DEMO_HEADER = { "x-vault-copilot-demo": "1" } as const;

/** The most one `data` event of Node's http carries (libuv reads a socket 64 KiB at a time). */
const NODE_READ_BYTES = 64 * 1024;

// Set by the browser or by the server for each request: fetch refuses or ignores them.
const HEADERS_LEFT_OUT = new Set(["content-length", "host", "connection", "accept-encoding", "user-agent"]);

type Listener = (...args: never[]) => void;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  protected emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...values: unknown[]) => void)(...args);
  }
}

class ProxiedResponse extends Emitter implements NodeIncomingMessage {
  complete = false;
  private closed = false;

  constructor(
    readonly statusCode: number,
    readonly statusMessage: string,
    readonly headers: Record<string, string | string[] | undefined>,
    private readonly abort: (error?: Error) => void,
  ) {
    super();
  }

  destroy(error?: Error): void {
    this.abort(error);
    this.close();
  }

  /** Reads the body and hands each piece on; ends, or fails, as the connection does. */
  async pump(body: ReadableStream<Uint8Array> | null): Promise<void> {
    try {
      if (body) {
        const reader = body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (this.closed) return;
          // As Node's http hands them on: a socket read is at most 64 KiB, while the page's fetch
          // may give a megabyte at once.
          for (let start = 0; start < value.byteLength && !this.closed; start += NODE_READ_BYTES) this.emit("data", value.subarray(start, start + NODE_READ_BYTES));
        }
      }
      this.complete = true;
      this.emit("end");
    } catch (error) {
      if (!this.closed) this.emit("error", error instanceof Error ? error : new Error(String(error)));
    }
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit("close");
  }
}

class ProxiedRequest extends Emitter implements NodeClientRequest {
  private readonly controller = new AbortController();

  constructor(
    private readonly url: URL,
    private readonly options: { method: string; headers: Record<string, string> },
    private readonly callback: (response: NodeIncomingMessage) => void,
  ) {
    super();
  }

  end(body?: string): void {
    void this.send(body);
  }

  destroy(error?: Error): void {
    this.controller.abort(error ?? new Error("socket hang up"));
  }

  private async send(body: string | undefined): Promise<void> {
    const headers: Record<string, string> = { ...DEMO_HEADER };
    for (const [name, value] of Object.entries(this.options.headers)) if (!HEADERS_LEFT_OUT.has(name.toLowerCase())) headers[name] = value;
    let fetched: Response;
    try {
      fetched = await fetch(`${PROXY_PATH}?url=${encodeURIComponent(this.url.href)}`, {
        method: this.options.method,
        headers,
        body: this.options.method === "GET" || this.options.method === "HEAD" ? undefined : body,
        signal: this.controller.signal,
      });
    } catch (error) {
      this.emit("error", error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const networkError = fetched.headers.get("x-vault-copilot-demo-network-error");
    if (networkError) {
      const text = await fetched.text();
      const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      this.emit("error", Object.assign(new Error(message), { code: networkError }));
      return;
    }
    const responseHeaders: Record<string, string> = {};
    fetched.headers.forEach((value, name) => (responseHeaders[name] = value));
    // The proxy answers 200 and gives the model server's status in its own headers (see scripts/demo/modelProxy.mjs).
    const status = Number(fetched.headers.get("x-vault-copilot-demo-status") ?? fetched.status);
    const statusText = decodeURIComponent(fetched.headers.get("x-vault-copilot-demo-status-text") ?? fetched.statusText);
    for (const name of Object.keys(responseHeaders)) if (name.startsWith("x-vault-copilot-demo-")) delete responseHeaders[name];
    const response = new ProxiedResponse(status, statusText, responseHeaders, (error) => this.destroy(error));
    this.callback(response);
    await response.pump(fetched.body);
  }
}

/** The `http` (and `https`) module the page's `window.require` hands out. */
export const proxiedHttp: NodeHttpModule = {
  request: (url, options, callback) => new ProxiedRequest(url, options, callback),
};

/** What desktop Obsidian's `window.require` gives a plugin, as far as the demo has it. */
export function demoRequire(id: string): unknown {
  if (id === "http" || id === "https" || id === "node:http" || id === "node:https") return proxiedHttp;
  throw new Error(`The browser demo has no Node module "${id}" (only http and https, through its proxy)`);
}

/**
 * The HTTP part shared by the scripted model servers of the Anthropic and Gemini wire formats: a
 * real server on 127.0.0.1 (random port) that records every POST with its parsed body, answers GETs
 * from a table, and writes SSE streams that a script may cut, hold open or fail mid-way.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setImmediate } from "node:timers";

export interface RecordedRequest<Body> {
  index: number;
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Body;
}

export interface RecordingServer<Body> {
  origin: string;
  requests: RecordedRequest<Body>[];
  close(): Promise<void>;
}

export interface RecordingServerOptions<Body> {
  /** Answers a POST (after it has been recorded). */
  post(request: RecordedRequest<Body>, outgoing: ServerResponse): void | Promise<void>;
  /** Answers a GET: status and JSON body, or undefined for 404. */
  get?(path: string, headers: IncomingHttpHeaders): { status: number; body: unknown } | undefined;
}

export async function startRecordingServer<Body>(options: RecordingServerOptions<Body>): Promise<RecordingServer<Body>> {
  const requests: RecordedRequest<Body>[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = incoming.url ?? "/";
      if (incoming.method === "GET") {
        const found = options.get?.(url.split("?")[0] ?? "/", incoming.headers);
        sendJson(outgoing, found?.status ?? 404, found?.body ?? { error: { message: `no route GET ${url}` } });
        return;
      }
      const rawBody = Buffer.concat(chunks).toString("utf8");
      let body: Body;
      try {
        body = JSON.parse(rawBody) as Body;
      } catch {
        sendJson(outgoing, 400, { error: { message: "the request body is not JSON" } });
        return;
      }
      const request: RecordedRequest<Body> = { index: requests.length, url, headers: incoming.headers, rawBody, body };
      requests.push(request);
      Promise.resolve(options.post(request, outgoing)).catch((error: unknown) => sendJson(outgoing, 500, { error: { message: `the script threw: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function sendJson(outgoing: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  outgoing.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  outgoing.end(JSON.stringify(body));
}

export interface StreamControl {
  /** Destroy the socket after this many events. */
  cutAfterEvents?: number;
  /** Send every event but never end: the connection stays open until the client goes. */
  holdOpen?: boolean;
  /** After this many events, send one whose data is not JSON, and end. */
  garbageAfterEvents?: number;
}

/** Writes SSE events (`event:` line when named) one per tick, honouring the cut and hold controls. */
export async function writeSse(outgoing: ServerResponse, events: Array<{ event?: string; data: unknown }>, control: StreamControl = {}): Promise<void> {
  outgoing.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
  for (const [index, event] of events.entries()) {
    if (control.cutAfterEvents !== undefined && index >= control.cutAfterEvents) {
      outgoing.socket?.destroy();
      return;
    }
    if (outgoing.destroyed) return;
    if (control.garbageAfterEvents === index) {
      outgoing.end("data: {this is not json\n\n");
      return;
    }
    outgoing.write(`${event.event ? `event: ${event.event}\n` : ""}data: ${JSON.stringify(event.data)}\n\n`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!control.holdOpen) outgoing.end();
}

/** Splits text into pieces of `size` characters (at least one piece, maybe empty). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

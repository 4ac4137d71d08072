import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/search?q=x&format=json". */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CannedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Text is sent as UTF-8; bytes as they are (a page in another charset). */
  body: string | Uint8Array;
}

export interface LocalServer {
  /** "http://127.0.0.1:PORT" */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 answering each request with `respond`, recording what it got. */
export async function startLocalServer(respond: (request: RecordedRequest) => CannedResponse | Promise<CannedResponse>): Promise<LocalServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = { method: incoming.method ?? "GET", url: incoming.url ?? "/", headers: incoming.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      Promise.resolve(respond(request)).then(
        (response) => {
          outgoing.writeHead(response.status ?? 200, { "Content-Type": "application/json; charset=utf-8", ...response.headers });
          outgoing.end(response.body);
        },
        (error: unknown) => {
          outgoing.writeHead(500);
          outgoing.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

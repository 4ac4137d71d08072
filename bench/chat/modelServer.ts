/**
 * The model server of the chat benchmark: a real chat-completions server on 127.0.0.1 speaking the
 * same wire format as test/helpers/openAIServer.ts (its `streamChunks`), whose next answer the
 * benchmark sets before each message. Unlike the test server it can also pace a stream (a batch of
 * chunks every few milliseconds, as a fast model does), for typing while an answer arrives.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { streamChunks, type ChatRequestBody, type RecordedChatRequest } from "../../test/helpers/openAIServer";

export interface BenchAnswer {
  text: string;
  /** Characters per text delta. */
  chunkSize: number;
  /** When set: this many deltas are written every `intervalMs`; otherwise all at once. */
  pace?: { deltas: number; intervalMs: number };
}

export interface BenchModelServer {
  baseUrl: string;
  /** The answer to every following request, until set again. */
  setAnswer(answer: BenchAnswer): void;
  close(): Promise<void>;
}

export async function startBenchModelServer(model: string): Promise<BenchModelServer> {
  let answer: BenchAnswer = { text: "Hello.", chunkSize: 4 };
  let index = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const path = (incoming.url ?? "/").split("?")[0] ?? "/";
      if (incoming.method === "GET" && path.endsWith("/models")) {
        outgoing.writeHead(200, { "Content-Type": "application/json" });
        outgoing.end(JSON.stringify({ object: "list", data: [{ id: model, object: "model", owned_by: "bench" }] }));
        return;
      }
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const request: RecordedChatRequest = { index: index++, url: incoming.url ?? "/", headers: incoming.headers, rawBody, body: JSON.parse(rawBody) as ChatRequestBody, closed: Promise.resolve() };
      streamAnswer(outgoing, request, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    setAnswer: (next) => (answer = next),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function streamAnswer(outgoing: ServerResponse, request: RecordedChatRequest, answer: BenchAnswer): void {
  outgoing.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", Connection: "keep-alive" });
  const lines = streamChunks(request, { text: answer.text, chunkSize: answer.chunkSize }).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  lines.push("data: [DONE]\n\n");
  if (!answer.pace) {
    outgoing.end(lines.join(""));
    return;
  }
  const { deltas, intervalMs } = answer.pace;
  let next = 0;
  const timer = setInterval(() => {
    if (outgoing.destroyed) return clearInterval(timer);
    outgoing.write(lines.slice(next, next + deltas).join(""));
    next += deltas;
    if (next >= lines.length) {
      clearInterval(timer);
      outgoing.end();
    }
  }, intervalMs);
  outgoing.once("close", () => clearInterval(timer));
}

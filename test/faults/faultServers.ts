/**
 * Model servers that misbehave in ways the scripted chat-completions server does not: one that
 * accepts a request and never answers, and one that answers with garbled server-sent events.
 * Both are real HTTP servers on 127.0.0.1.
 */
import type { ServerResponse } from "node:http";
import { startRawWireServer } from "../helpers/rawWireServer";

export interface FaultServer {
  baseUrl: string;
  /** How many chat-completions requests arrived. */
  requests(): number;
  close(): Promise<void>;
}

async function serve(answer: (response: ServerResponse) => void): Promise<FaultServer> {
  let count = 0;
  const server = await startRawWireServer((response, request) => {
    if (request.url?.endsWith("/models")) {
      response.writeHead(200, { "Content-Type": "application/json" }).end('{"data":[]}');
      return;
    }
    count++;
    answer(response);
  });
  return { baseUrl: server.baseUrl, requests: () => count, close: () => server.close() };
}

/** Accepts every request and never sends a byte back. */
export function startSilentServer(): Promise<FaultServer> {
  return serve(() => undefined);
}

/** Starts a stream with one good text chunk, then sends lines that are not server-sent events of JSON. */
export function startGarbledServer(): Promise<FaultServer> {
  return serve((response) => {
    response.writeHead(200, { "Content-Type": "text/event-stream" });
    const chunk = { id: "x", object: "chat.completion.chunk", created: 1, model: "test-model", choices: [{ index: 0, delta: { content: "Partial words" }, finish_reason: null }] };
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    response.write("data: {this is not json\n\n");
    response.end("data: \u0000\u0001 garbage ]]]\n\n");
  });
}

/**
 * A real HTTP server on 127.0.0.1 whose every POST is answered by the test's own hand, byte by
 * byte (`answer(response, request)`), for what the scripted servers will not send: a 200 of the
 * wrong kind, a stream that never ends, usage objects no real server should send. With it, the
 * streamed events of each provider's wire format in their smallest form:
 *
 *   const server = await startRawWireServer((response) => {
 *     response.writeHead(200, { "content-type": "text/event-stream" });
 *     response.end(WIRE_EVENTS.anthropic.text("Hi") + WIRE_EVENTS.anthropic.end({ output_tokens: -5 }));
 *   });
 *   server.baseUrl;   // "http://127.0.0.1:PORT/v1" (each provider's client adds its own path)
 *   server.requests;  // how many POSTs arrived
 *   await server.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type WireName = "openai" | "anthropic" | "gemini";

export interface RawWireServer {
  baseUrl: string;
  requests(): number;
  close(): Promise<void>;
}

export async function startRawWireServer(answer: (response: ServerResponse, request: IncomingMessage) => void): Promise<RawWireServer> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      count++;
      answer(response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const event = (data: unknown, name?: string) => `${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/** For each wire format: the events of a start (Anthropic's carries the input `usage`), a text delta, and a normal end carrying `usage` (in that format's own field names). */
export const WIRE_EVENTS: Record<WireName, { start: (usage?: Record<string, unknown>) => string; text: (text: string) => string; end: (usage: Record<string, unknown>) => string }> = {
  openai: {
    start: () => event({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
    text: (text) => event({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
    end: (usage) =>
      event({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }) +
      event({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage }) +
      "data: [DONE]\n\n",
  },
  anthropic: {
    start: (usage = { input_tokens: 12, output_tokens: 1 }) =>
      event({ type: "message_start", message: { id: "msg", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage } }, "message_start") +
      event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
    text: (text) => event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }, "content_block_delta"),
    end: (usage) =>
      event({ type: "content_block_stop", index: 0 }, "content_block_stop") +
      event({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage }, "message_delta") +
      event({ type: "message_stop" }, "message_stop"),
  },
  gemini: {
    start: () => "",
    text: (text) => event({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }] }),
    end: (usage) => event({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata: usage }),
  },
};

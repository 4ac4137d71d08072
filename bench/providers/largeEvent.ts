/**
 * One server-sent event of many megabytes, read by each provider's client over each fetch the
 * product uses (Node's fetch in the CLI, Node's http on desktop Obsidian), and by the SSE reader
 * alone: the CPU time of this process (the server runs in a child process, so its writing is not
 * counted) and the wall time until the answer's text is read, or refused at the event limit.
 * A case still running after CASE_LIMIT_S is stopped and printed as "> …".
 */
import { spawn } from "node:child_process";
import * as http from "node:http";
import * as https from "node:https";
import { HumanMessage } from "@langchain/core/messages";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { MapSecretStore } from "../../src/ports/SecretStore";
import type { FetchLike } from "../../src/ports/FetchLike";
import { createNodeHttpFetch } from "../../src/net/nodeHttpFetch";
import { MAX_SSE_EVENT_CHARACTERS, readSseEvents } from "../../src/net/sseEvents";

const MB = 1024 * 1024;
const CASE_LIMIT_S = Number(process.env.BENCH_EVENT_LIMIT_S ?? 120);
const WIRES = [
  { name: "OpenAI-compatible", preset: "custom", wire: "openai" },
  { name: "Anthropic", preset: "anthropic", wire: "anthropic" },
  { name: "Gemini", preset: "gemini", wire: "gemini" },
] as const;

/** The child's server: every POST is answered with the stream of one answer whose text is one event of BYTES bytes. */
const SERVER_SCRIPT = `
const http = require("node:http");
const bytes = Number(process.env.EVENT_BYTES);
const wire = process.env.WIRE;
const text = "stream answer vault note ".repeat(Math.ceil(bytes / 25)).slice(0, bytes);
const event = (data, name) => (name ? "event: " + name + "\\n" : "") + "data: " + JSON.stringify(data) + "\\n\\n";
const chunk = (delta, finish) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish ?? null }] });
const streams = {
  openai: () => event(chunk({ role: "assistant", content: "" })) + event(chunk({ content: text })) + event(chunk({}, "stop")) + "data: [DONE]\\n\\n",
  anthropic: () =>
    event({ type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "m", content: [], usage: { input_tokens: 1, output_tokens: 1 } } }, "message_start") +
    event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start") +
    event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }, "content_block_delta") +
    event({ type: "content_block_stop", index: 0 }, "content_block_stop") +
    event({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }, "message_delta") +
    event({ type: "message_stop" }, "message_stop"),
  gemini: () => event({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }] }) + event({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 } }),
};
const body = Buffer.from(streams[wire](), "utf8");
const server = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(body);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write("port " + server.address().port + "\\n"));
`;

interface EventServer {
  baseUrl: string;
  stop(): void;
}

function startEventServer(wire: string, bytes: number): Promise<EventServer> {
  const child = spawn(process.execPath, ["-e", SERVER_SCRIPT], { env: { ...process.env, WIRE: wire, EVENT_BYTES: String(bytes) }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (data: Buffer) => {
      const port = /port (\d+)/.exec(data.toString())?.[1];
      if (port) resolve({ baseUrl: `http://127.0.0.1:${port}/v1`, stop: () => child.kill() });
    });
    child.once("exit", (code) => reject(new Error(`the event server exited (${code})`)));
  });
}

interface Timing {
  cpuMs: number;
  wallMs: number;
  outcome: string;
}

async function timed(work: (signal: AbortSignal) => Promise<string>): Promise<Timing> {
  const controller = new AbortController();
  const limit = setTimeout(() => controller.abort(new Error("time limit")), CASE_LIMIT_S * 1000);
  const cpu = process.cpuUsage();
  const wall = performance.now();
  let outcome: string;
  try {
    outcome = await work(controller.signal);
  } catch (error) {
    outcome = controller.signal.aborted ? `stopped after ${CASE_LIMIT_S} s` : `refused: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(limit);
  }
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall, outcome };
}

async function readAnswer(wire: (typeof WIRES)[number], baseUrl: string, fetch: FetchLike, signal: AbortSignal): Promise<string> {
  const provider = { ...DEFAULT_SETTINGS.provider, preset: wire.preset, baseUrl, model: "m", maxTokens: 100_000_000, apiKeySecretId: "key" };
  const secrets = new MapSecretStore();
  secrets.set("key", "bench-key");
  const { chatModel } = createChatModel(provider, { fetch, secrets });
  let characters = 0;
  for await (const chunk of await chatModel.stream([new HumanMessage("Write it all.")], { signal })) characters += typeof chunk.content === "string" ? chunk.content.length : 0;
  return `read ${(characters / MB).toFixed(1)} Mi characters`;
}

/** The SSE reader alone over one event of `bytes` in 64 KiB reads, with the limit lifted. */
async function readerAlone(bytes: number): Promise<Timing> {
  const line = new TextEncoder().encode(`data: ${"x".repeat(bytes)}\n\n`);
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= line.length) return controller.close();
      controller.enqueue(line.subarray(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
  return timed(async () => {
    let characters = 0;
    for await (const event of readSseEvents(body, { maxEventCharacters: Number.MAX_SAFE_INTEGER })) characters += event.data.length;
    return `read ${(characters / MB).toFixed(1)} Mi characters`;
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function largeEventFigures(): Promise<string[]> {
  const fetches: Array<[string, FetchLike]> = [
    ["Node's fetch (CLI)", globalThis.fetch],
    ["Node's http (desktop)", createNodeHttpFetch({ http, https })],
  ];
  const lines = [`one SSE event (event limit ${MAX_SSE_EVENT_CHARACTERS / MB} Mi characters; CPU of the client's process, wall time):`];
  for (const megabytes of [8, 50]) {
    for (const wire of WIRES) {
      const server = await startEventServer(wire.wire, megabytes * MB);
      try {
        for (const [fetchName, fetch] of fetches) {
          const timing = await timed((signal) => readAnswer(wire, server.baseUrl, fetch, signal));
          lines.push(`  ${megabytes} MB, ${wire.name}, ${fetchName}: CPU ${seconds(timing.cpuMs)}, wall ${seconds(timing.wallMs)}: ${timing.outcome.slice(0, 140)}`);
        }
      } finally {
        server.stop();
      }
    }
  }
  const alone = await readerAlone(50 * MB);
  lines.push(`  50 MB, the SSE reader alone (64 KiB reads, no limit): CPU ${seconds(alone.cpuMs)}, wall ${seconds(alone.wallMs)}: ${alone.outcome}`);
  return lines;
}

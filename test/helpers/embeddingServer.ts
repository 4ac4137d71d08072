/**
 * A real HTTP server on 127.0.0.1 (random port) speaking the OpenAI embeddings wire format
 * (`POST …/embeddings`, any prefix) with deterministic vectors: every word is hashed to one of
 * `dimensions` dimensions and counted there, after the test's synonym table maps it
 * ({ automobile: "car" } puts "automobile" where "car" is). Texts sharing words (or synonyms)
 * therefore point the same way, and nothing else does beyond hash collisions.
 *
 *   const server = await startEmbeddingServer({ synonyms: { automobile: "car" } });
 *   server.baseUrl;                 // "http://127.0.0.1:PORT/v1"
 *   server.requests;                // [{ model, input: [...texts], headers }] in arrival order
 *   server.inputs();                // every text sent (failed requests too), flattened
 *   server.failNext({ status: 429, retryAfter: "0" });     // the next request fails so
 *   server.failRequest(3, { status: 500 });                // the 4th request (0-based 3) fails
 *   server.stall();                 // later requests are accepted and never answered
 *   await server.arrived(1);        // resolves once that many requests have arrived
 *   server.answerVectors((text) => text.includes("bad") ? [1e39, 0] : undefined); // hostile vectors
 *   server.reset();                 // between tests: requests, failures, stalls and scripts forgotten
 *   await server.close();
 *
 * A failed request is recorded too (with `failed: true`). `knownModels` makes other models
 * answer 404 `model_not_found`.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface EmbeddingServerOptions {
  dimensions?: number;
  synonyms?: Record<string, string>;
  knownModels?: string[];
}

export interface ScriptedFailure {
  status: number;
  /** The Retry-After header's value, when there is one. */
  retryAfter?: string;
  message?: string;
}

export interface EmbeddingRequest {
  model: string;
  input: string[];
  headers: IncomingHttpHeaders;
  failed: boolean;
}

export interface EmbeddingServer {
  baseUrl: string;
  requests: EmbeddingRequest[];
  inputs(): string[];
  failNext(failure: ScriptedFailure, times?: number): void;
  failRequest(index: number, failure: ScriptedFailure): void;
  /** Later requests are recorded, then left without an answer (the connection stays open). */
  stall(): void;
  /** Resolves once `count` requests in all have arrived. */
  arrived(count: number): Promise<void>;
  /** The vector to send for a text instead of the computed one (undefined: the computed one). */
  answerVectors(script: ((text: string) => number[] | undefined) | null): void;
  /** Forgets the recorded requests, any scripted failures not used yet, a stall and vector script. */
  reset(): void;
  /** The vector the server gives a text (before the client normalises it). */
  vectorOf(text: string): number[];
  close(): Promise<void>;
}

export async function startEmbeddingServer(options: EmbeddingServerOptions = {}): Promise<EmbeddingServer> {
  const dimensions = options.dimensions ?? 64;
  const synonyms = new Map(Object.entries(options.synonyms ?? {}).map(([word, target]) => [word.toLowerCase(), target.toLowerCase()]));
  const requests: EmbeddingRequest[] = [];
  const byIndex = new Map<number, ScriptedFailure>();
  const queued: ScriptedFailure[] = [];
  let stalled = false;
  let vectorScript: ((text: string) => number[] | undefined) | null = null;
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  const noteArrival = () => {
    const ready = waiters.filter((waiter) => requests.length >= waiter.count);
    waiters = waiters.filter((waiter) => requests.length < waiter.count);
    for (const waiter of ready) waiter.resolve();
  };

  const vectorOf = (text: string): number[] => {
    const vector = new Array<number>(dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const slot = wordHash(synonyms.get(word) ?? word) % dimensions;
      vector[slot] = (vector[slot] ?? 0) + 1;
    }
    return vector;
  };

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        outgoing.writeHead(status, { "content-type": "application/json", ...headers });
        outgoing.end(JSON.stringify(body));
      };
      if (incoming.method !== "POST" || !/\/embeddings$/.test(incoming.url ?? "")) {
        answer(404, { error: { message: `no route ${incoming.method} ${incoming.url}` } });
        return;
      }
      let body: { model?: unknown; input?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
      } catch {
        answer(400, { error: { message: "body is not JSON" } });
        return;
      }
      const input = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : [];
      const index = requests.length;
      const failure = byIndex.get(index) ?? queued.shift();
      const model = typeof body.model === "string" ? body.model : "";
      requests.push({ model, input, headers: incoming.headers, failed: failure !== undefined });
      noteArrival();
      if (stalled) return;
      if (failure) {
        answer(failure.status, { error: { message: failure.message ?? `scripted failure ${failure.status}` } }, failure.retryAfter === undefined ? {} : { "retry-after": failure.retryAfter });
        return;
      }
      if (options.knownModels && !options.knownModels.includes(model)) {
        answer(404, { error: { message: `model "${model}" not found`, code: "model_not_found" } });
        return;
      }
      // Listed in reverse, as a server may: the client orders by `index`.
      const data = input.map((text, position) => ({ object: "embedding", index: position, embedding: vectorScript?.(text) ?? vectorOf(text) })).reverse();
      answer(200, { object: "list", model, data, usage: { prompt_tokens: 0, total_tokens: 0 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    inputs: () => requests.flatMap((request) => request.input),
    failNext: (failure, times = 1) => {
      for (let count = 0; count < times; count++) queued.push(failure);
    },
    failRequest: (index, failure) => byIndex.set(index, failure),
    stall: () => {
      stalled = true;
    },
    arrived: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        noteArrival();
      }),
    answerVectors: (script) => {
      vectorScript = script;
    },
    reset: () => {
      stalled = false;
      vectorScript = null;
      requests.length = 0;
      byIndex.clear();
      queued.length = 0;
    },
    vectorOf,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function wordHash(word: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < word.length; index++) hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

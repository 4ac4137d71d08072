import type { FetchLike } from "../../ports/FetchLike";
import type { Scheduler } from "../../ports/timers";
import { throwIfFailed } from "../../LLMProviders/wire/httpStatusError";
import { MODEL_IDLE_TIMEOUT_MS, SilenceWatch, silenceError } from "../../LLMProviders/silenceWatch";

/** Turns texts into unit-length vectors, one per text, in the order given. */
export interface EmbeddingClient {
  readonly model: string;
  /** Where the requests go, for messages about failures. */
  readonly baseUrl?: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EmbeddingClientOptions {
  fetch: FetchLike;
  /** The API root, e.g. "https://api.openai.com/v1", "http://127.0.0.1:11434/v1" (Ollama). */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token when given (local servers need none). */
  apiKey?: string;
  /** How long a request may stay silent (before its first byte or between two pieces); MODEL_IDLE_TIMEOUT_MS by default. */
  idleTimeoutMs?: number;
  /** The timers of that limit (tests hand in a fake one). */
  scheduler?: Scheduler;
}

/** The server answered 2xx with something other than one vector per text. */
export class EmbeddingResponseError extends Error {
  constructor(detail: string) {
    super(`The embeddings server sent an answer that cannot be used: ${detail}.`);
    this.name = "EmbeddingResponseError";
  }
}

/**
 * A client for the OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, Ollama and LM Studio
 * speak it). A non-2xx answer throws `HttpStatusError`, whose status and Retry-After
 * `classifyModelError` reads, so the caller decides what to retry. A server silent for longer
 * than the idle limit (as model requests have it) is given up with a "timeout" ModelError.
 */
export function createEmbeddingClient(options: EmbeddingClientOptions): EmbeddingClient {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  return {
    model: options.model,
    baseUrl: options.baseUrl,
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const { status, headers: responseHeaders, text } = await postWithinIdleLimit(url, { method: "POST", headers, body: JSON.stringify({ model: options.model, input: texts }) }, options, signal);
      await throwIfFailed(new Response(text, { status, headers: responseHeaders }), (body) => {
        const message = (body as { error?: { message?: unknown } | string } | null)?.error;
        if (typeof message === "string") return { message };
        return { message: typeof message?.message === "string" ? message.message : "" };
      });
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new EmbeddingResponseError(`a body that is not JSON (${text.replace(/\s+/g, " ").trim().slice(0, 80)})`);
      }
      return readVectors(body, texts.length);
    },
  };
}

/**
 * The request, its body read piece by piece: each piece restarts the idle limit, and a silence
 * longer than it aborts the request with a "timeout" ModelError. The caller's signal aborts it too.
 */
async function postWithinIdleLimit(
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
  options: EmbeddingClientOptions,
  signal: AbortSignal | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  const attempt = new AbortController();
  const forward = () => attempt.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  const silence = new SilenceWatch(options.idleTimeoutMs ?? MODEL_IDLE_TIMEOUT_MS, () => attempt.abort(new Error("idle timeout")), options.scheduler);
  try {
    silence.activity();
    const response = await options.fetch(url, { ...init, signal: attempt.signal });
    silence.activity();
    const decoder = new TextDecoder();
    let text = "";
    const reader = response.body?.getReader();
    for (;;) {
      const piece = await reader?.read();
      if (!piece || piece.done) break;
      silence.activity();
      text += decoder.decode(piece.value, { stream: true });
    }
    return { status: response.status, headers: response.headers, text: text + decoder.decode() };
  } catch (error) {
    if (silence.timedOut && !signal?.aborted) throw silenceError(`The embeddings server (${options.baseUrl})`, silence.idleMs, false);
    throw error;
  } finally {
    silence.stop();
    signal?.removeEventListener("abort", forward);
  }
}

/** The `data` entries ordered by their `index`, each as a unit vector. */
function readVectors(body: unknown, expected: number): Float32Array[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new EmbeddingResponseError("no data list");
  if (data.length !== expected) throw new EmbeddingResponseError(`${data.length} vectors for ${expected} texts`);
  const vectors: Float32Array[] = new Array<Float32Array>(expected);
  data.forEach((entry: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof entry?.index === "number" ? entry.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= expected || vectors[index]) throw new EmbeddingResponseError(`a bad or repeated index ${String(index)}`);
    if (!Array.isArray(entry.embedding) || entry.embedding.length === 0) throw new EmbeddingResponseError(`no embedding at index ${index}`);
    vectors[index] = normalized(entry.embedding as unknown[]);
  });
  const dimensions = vectors[0]?.length;
  if (vectors.some((vector) => vector.length !== dimensions)) throw new EmbeddingResponseError("vectors of different lengths");
  return vectors;
}

/** The vector scaled to length 1 (a zero vector stays zero). */
export function normalized(values: ArrayLike<unknown>): Float32Array {
  const vector = new Float32Array(values.length);
  let sum = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (typeof value !== "number" || !Number.isFinite(value)) throw new EmbeddingResponseError("a value that is not a number");
    vector[index] = value;
    sum += value * value;
  }
  if (sum > 0) {
    const inverse = 1 / Math.sqrt(sum);
    for (let index = 0; index < vector.length; index++) vector[index] = (vector[index] ?? 0) * inverse;
  }
  return vector;
}

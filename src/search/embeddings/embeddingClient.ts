import type { FetchLike } from "../../ports/FetchLike";
import type { Scheduler } from "../../ports/timers";
import { throwIfFailed } from "../../net/httpStatusError";
import { MODEL_IDLE_TIMEOUT_MS, SilenceWatch, silenceError } from "../../net/silenceWatch";

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

/** Largest magnitude a float32 holds; a value past it would be stored as Infinity. */
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * Some of a batch's vectors cannot be used (a value that is not a number or is beyond float32, or
 * all zero: no direction to compare): the others are in `vectors`, and `problems` says, by the
 * text's position, what was wrong with each refused one. Thrown so that only the notes of the
 * refused texts fail, not the batch.
 */
export class UnusableVectorsError extends Error {
  constructor(
    readonly vectors: ReadonlyArray<Float32Array | undefined>,
    readonly problems: ReadonlyMap<number, string>,
  ) {
    super(`The embeddings server sent ${problems.size} vector${problems.size === 1 ? "" : "s"} that cannot be used: ${[...problems.values()][0] ?? ""}.`);
    this.name = "UnusableVectorsError";
  }
}

/** The `data` entries ordered by their `index`, each as a unit vector; UnusableVectorsError names the ones refused. */
function readVectors(body: unknown, expected: number): Float32Array[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new EmbeddingResponseError("no data list");
  if (data.length !== expected) throw new EmbeddingResponseError(`${data.length} vectors for ${expected} texts`);
  const vectors: Array<Float32Array | undefined> = new Array<Float32Array | undefined>(expected);
  const seen = new Set<number>();
  const problems = new Map<number, string>();
  data.forEach((entry: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof entry?.index === "number" ? entry.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= expected || seen.has(index)) throw new EmbeddingResponseError(`a bad or repeated index ${String(index)}`);
    seen.add(index);
    if (!Array.isArray(entry.embedding) || entry.embedding.length === 0) throw new EmbeddingResponseError(`no embedding at index ${index}`);
    const problem = unusable(entry.embedding as unknown[]);
    if (problem) problems.set(index, problem);
    else vectors[index] = normalized(entry.embedding as number[]);
  });
  const dimensions = vectors.find((vector) => vector !== undefined)?.length;
  if (vectors.some((vector) => vector !== undefined && vector.length !== dimensions)) throw new EmbeddingResponseError("vectors of different lengths");
  if (problems.size > 0) throw new UnusableVectorsError(vectors, problems);
  return vectors as Float32Array[];
}

/** Why a vector cannot be stored or compared, or undefined when it can. */
function unusable(values: readonly unknown[]): string | undefined {
  let nonZero = false;
  for (const value of values) {
    if (typeof value !== "number" || !Number.isFinite(value)) return "a value that is not a number";
    if (Math.abs(value) > FLOAT32_MAX) return `a value beyond the float32 range (${value})`;
    if (value !== 0) nonZero = true;
  }
  if (!nonZero) return "all its values are zero";
  return undefined;
}

/**
 * The vector scaled to length 1, computed in double precision and stored as float32 (a zero
 * vector stays zero). Throws EmbeddingResponseError for a value that is not a finite number.
 */
export function normalized(values: ArrayLike<unknown>): Float32Array {
  const exact = new Float64Array(values.length);
  let largest = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (typeof value !== "number" || !Number.isFinite(value)) throw new EmbeddingResponseError("a value that is not a number");
    exact[index] = value;
    largest = Math.max(largest, Math.abs(value));
  }
  const vector = new Float32Array(values.length);
  if (largest === 0) return vector;
  // Scaled by the largest value first, so neither tiny values nor huge ones square to 0 or Infinity.
  let sum = 0;
  for (let index = 0; index < exact.length; index++) {
    const scaled = (exact[index] ?? 0) / largest;
    exact[index] = scaled;
    sum += scaled * scaled;
  }
  const inverse = 1 / Math.sqrt(sum);
  for (let index = 0; index < exact.length; index++) vector[index] = (exact[index] ?? 0) * inverse;
  return vector;
}

import { delay } from "../../ports/timers";
import { classifyModelError, ModelError } from "../../net/modelErrors";
import { retryDelayMs, type RetryPolicy } from "../../net/retryPolicy";
import { UnusableVectorsError, type EmbeddingClient } from "./embeddingClient";

const UNREACHABLE_HINT = "Check that the embeddings server is running and its base URL in the settings.";

/**
 * One batch embedded, retried on what may heal (rate limits, server errors, a server not reachable
 * yet) after the policy's backoff or the server's Retry-After. Throws the last failure as a
 * ModelError. A server that cannot be reached is retried here (unlike a chat request, nobody is
 * waiting on it: a local server that is still starting should just be waited for). Vectors that
 * cannot be used (UnusableVectorsError) are not retried and pass through as they are, with the
 * good ones, for the caller to fail only their notes.
 */
export async function embedWithRetry(
  client: EmbeddingClient,
  texts: string[],
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: (error: ModelError, delayMs: number) => void,
): Promise<Float32Array[]> {
  for (let failures = 1; ; failures++) {
    try {
      return await client.embed(texts, signal);
    } catch (error) {
      if (error instanceof UnusableVectorsError) throw error;
      const classified = asEmbeddingError(error, client, signal);
      const wait = retryDelayMs(policy, failures, classified);
      if (wait === null || signal?.aborted) throw classified;
      onRetry?.(classified, wait);
      await delay(wait, signal);
    }
  }
}

export function asEmbeddingError(error: unknown, client: EmbeddingClient, signal?: AbortSignal): ModelError {
  const classified = classifyModelError(
    error,
    { providerName: "The embeddings server", baseUrl: client.baseUrl ?? "", model: client.model, unreachableHint: UNREACHABLE_HINT, receivedAnything: false },
    signal,
  );
  if (classified.kind === "endpoint-not-found") return new ModelError(classified.kind, classified.message.replace("chat-completions", "embeddings"), classified.details);
  if (classified.kind !== "unreachable" || classified.retryable) return classified;
  return new ModelError(classified.kind, classified.message, { ...classified.details, retryable: true });
}

/**
 * Failures that no other batch would escape: the run stops instead of trying the rest. A server
 * that stayed silent past the idle limit would keep every later batch waiting as long.
 */
export function stopsTheRun(error: ModelError): boolean {
  return error.retryable || ["authentication", "model-not-found", "endpoint-not-found", "missing-api-key", "aborted", "timeout"].includes(error.kind);
}

/** A stopped run tries again later after these: they may heal (a stalled server may be restarted). */
export function mayHealLater(error: ModelError): boolean {
  return error.retryable || error.kind === "timeout";
}

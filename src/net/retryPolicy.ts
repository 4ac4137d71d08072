import type { ModelError } from "./modelErrors";

/** When and how long to wait before asking the model again after a retryable failure. */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles after each further one. */
  baseDelayMs: number;
  /** No single wait is longer; a server asking for longer (Retry-After) is not retried. */
  maxDelayMs: number;
  /** For the jitter; tests may fix it. */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 20_000 };

/**
 * The wait before try `failures + 1`, or null when there should be none: the error is not
 * retryable, the tries are used up, or the server asked for a longer wait than the policy allows.
 * The server's Retry-After wins over the computed backoff; the backoff gets jitter (50–100 %) so
 * that several views retrying at once do not hit the server together.
 */
export function retryDelayMs(policy: RetryPolicy, failures: number, error: ModelError): number | null {
  if (!error.retryable || failures >= policy.maxAttempts) return null;
  const asked = error.details.retryAfterMs;
  if (asked !== undefined) return asked <= policy.maxDelayMs ? asked : null;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
  const random = policy.random ?? Math.random;
  return Math.round(backoff * (0.5 + random() / 2));
}

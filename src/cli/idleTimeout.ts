import { UsageError } from "./args";

/**
 * The environment variable that sets, in milliseconds, how long a model or embeddings server may
 * stay silent before the command gives up on it (MODEL_IDLE_TIMEOUT_MS, 120 s, when unset): for a
 * slow local model, or a test that needs no two-minute wait.
 */
export const IDLE_TIMEOUT_ENV = "VAULT_COPILOT_IDLE_TIMEOUT_MS";

/** The limit the environment sets, or undefined for the default. Throws UsageError for a value that is not a whole number above 0. */
export function idleTimeoutFromEnv(env: Record<string, string | undefined>): number | undefined {
  const value = env[IDLE_TIMEOUT_ENV]?.trim();
  if (!value) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${IDLE_TIMEOUT_ENV} takes a whole number of milliseconds above 0, not "${value}"`);
  return Number(value);
}

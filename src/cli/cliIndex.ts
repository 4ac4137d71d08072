import { abortReason } from "../ports/timers";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import type { CliSearchServices, CliSession } from "./cliSession";
import type { CliIo } from "./io";

/** The flags that switch embeddings on for one command (`search`, `similar`, `qa`, `agent`). */
export const EMBEDDING_FLAGS = ["embedding-base-url", "embedding-model", "embedding-api-key-env"] as const;

/** Where the CLI keeps the key from `--embedding-api-key-env` (a SecretStore id, as in the plugin). */
const CLI_EMBEDDING_KEY_ID = "cli-embedding-key";

/**
 * The embeddings the flags ask for: with `--embedding-base-url`, every included note is embedded
 * first (stored next to the index, so a second run sends only what changed) and the index fuses
 * words and meaning; without it, nothing. Throws UsageError for a bad flag. Reads the flags into
 * the session's settings before the services exist, so `applyEmbeddingFlags` comes first and
 * `embedNotes` after the services are made.
 */
export function applyEmbeddingFlags(args: ParsedArgs, session: CliSession, io: CliIo): boolean {
  const baseUrl = stringFlag(args, "embedding-base-url");
  if (baseUrl === undefined) return false;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw new UsageError(`--embedding-base-url needs an http(s) URL, not "${baseUrl}"`);
  const model = stringFlag(args, "embedding-model");
  if (!model) throw new UsageError("--embedding-base-url needs --embedding-model NAME");
  const keyVariable = stringFlag(args, "embedding-api-key-env");
  if (keyVariable !== undefined) {
    const key = io.env[keyVariable];
    if (!key) throw new UsageError(`--embedding-api-key-env ${keyVariable}: that environment variable is not set`);
    session.secrets.set(CLI_EMBEDDING_KEY_ID, key);
    io.addSecret?.(key);
  }
  session.settings.embeddings = { ...session.settings.embeddings, enabled: true, baseUrl, model, apiKeySecretId: keyVariable ? CLI_EMBEDDING_KEY_ID : "" };
  return true;
}

/**
 * Embeds what changed since the last run, when the flags switched embeddings on. Embeddings
 * requests have the model requests' idle limit (VAULT_COPILOT_IDLE_TIMEOUT_MS over the 120 s
 * default): a server that stays silent stops the embedding, says so in one line, and the command
 * searches by words alone; a query whose embedding fails says so and is answered by words.
 * Ctrl-C or SIGTERM stops the embedding at once (what was stored is kept) and ends the command.
 */
export async function embedNotes(services: CliSearchServices, session: CliSession, io: CliIo): Promise<void> {
  if (!session.settings.embeddings.enabled) return;
  const { embedder } = services.semantic;
  const stop = () => void embedder.dispose();
  io.signal.addEventListener("abort", stop, { once: true });
  try {
    if (!io.signal.aborted) await embedder.start();
  } finally {
    io.signal.removeEventListener("abort", stop);
    await embedder.dispose();
  }
  if (io.signal.aborted) throw new Error(`stopped while the notes were embedded (${abortReason(io.signal).message}); what was embedded is kept`);
  // After a stall, no query is sent to the silent server: words alone.
  if (services.embeddingStalled) session.settings.embeddings = { ...session.settings.embeddings, enabled: false };
}

/** A score as printed: four decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

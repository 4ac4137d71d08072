import { promises as fs } from "node:fs";
import { setImmediate } from "node:timers";
import { MapSecretStore } from "../ports/SecretStore";
import { abortReason } from "../ports/timers";
import { createSemanticSearch, type SemanticSearch } from "../search/embeddings/semanticSearch";
import { NoteIndex } from "../search/NoteIndex";
import type { VectorSide } from "../search/vectorSide";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import type { CopilotSettings } from "../settings/settingsSchema";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import type { CliIo } from "./io";
import { loadVaultSettings } from "./vaultSettings";
import { idleTimeoutFromEnv } from "./idleTimeout";

/** The folder's note index, kept in its plugin folder as in Obsidian, with the vault's settings. */
export interface CliIndex {
  vault: FsVault;
  settings: CopilotSettings;
  index: NoteIndex;
}

/** The flags that switch embeddings on for one command (`search`, `similar`, `qa`, `agent`). */
export const EMBEDDING_FLAGS = ["embedding-base-url", "embedding-model", "embedding-api-key-env"] as const;

/** Where the CLI keeps the key from `--embedding-api-key-env` (a SecretStore id, as in the plugin). */
const CLI_EMBEDDING_KEY_ID = "cli-embedding-key";

/**
 * Opens `--vault DIR` for the index-only commands (`search`, `similar`): the folder must exist;
 * the settings are the plugin's there (exclusions, history folder). Nothing of LangChain loads.
 * With `--embedding-base-url`, the notes are embedded first (only what changed since the last
 * run) and the index fuses words and meaning.
 */
export async function openCliIndex(folder: string, io: CliIo, args?: ParsedArgs): Promise<CliIndex> {
  const stats = await fs.stat(folder).catch(() => null);
  if (!stats?.isDirectory()) throw new Error(`no folder at --vault "${folder}"`);
  const vault = new FsVault(folder, undefined, { onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`) });
  const settings = await loadVaultSettings(vault, io);
  const semantic = args ? await cliSemanticSearch(args, vault, settings, io) : null;
  return { vault, settings, index: createCliNoteIndex(vault, settings, io, semantic) };
}

/**
 * The embeddings the flags ask for, with every included note embedded (stored next to the
 * index, so a second run sends only what changed), or null without `--embedding-base-url`.
 * Sets `settings.embeddings` from the flags. Throws UsageError for a bad flag.
 *
 * Embeddings requests have the model requests' idle limit (VAULT_COPILOT_IDLE_TIMEOUT_MS over the
 * 120 s default): a server that stays silent stops the embedding, says so in one line, and the
 * command searches by words alone (null); a query whose embedding fails says so and is answered
 * by words. Ctrl-C or SIGTERM stops the embedding at once (what was stored is kept) and ends the
 * command.
 */
export async function cliSemanticSearch(args: ParsedArgs, vault: FsVault, settings: CopilotSettings, io: CliIo): Promise<SemanticSearch | null> {
  const baseUrl = stringFlag(args, "embedding-base-url");
  if (baseUrl === undefined) return null;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw new UsageError(`--embedding-base-url needs an http(s) URL, not "${baseUrl}"`);
  const model = stringFlag(args, "embedding-model");
  if (!model) throw new UsageError("--embedding-base-url needs --embedding-model NAME");
  const secrets = new MapSecretStore();
  const keyVariable = stringFlag(args, "embedding-api-key-env");
  if (keyVariable !== undefined) {
    const key = io.env[keyVariable];
    if (!key) throw new UsageError(`--embedding-api-key-env ${keyVariable}: that environment variable is not set`);
    secrets.set(CLI_EMBEDDING_KEY_ID, key);
    io.addSecret?.(key);
  }
  settings.embeddings = { ...settings.embeddings, enabled: true, baseUrl, model, apiKeySecretId: keyVariable ? CLI_EMBEDDING_KEY_ID : "" };
  const idleTimeoutMs = idleTimeoutFromEnv(io.env);
  let stalled = false;
  const semantic = createSemanticSearch({
    vault,
    store: new FsDataStore(pluginDataFolder(vault.root, vault.configDir)),
    fetch,
    secrets,
    getSettings: () => settings,
    yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    onProblem: ({ error, stopped }) => {
      stalled ||= stopped && error.kind === "timeout";
      const after = stalled ? "; notes are searched by words alone" : "";
      io.stderr(`vault-copilot: embeddings: ${error.message}${stopped ? " (the rest waits for the next run)" : ""}${after}\n`);
    },
    onQueryProblem: (error) => io.stderr(`vault-copilot: embeddings: ${error.message} This search is by words alone.\n`),
  });
  const stop = () => void semantic.embedder.dispose();
  io.signal.addEventListener("abort", stop, { once: true });
  try {
    if (!io.signal.aborted) await semantic.embedder.start();
  } finally {
    io.signal.removeEventListener("abort", stop);
    await semantic.embedder.dispose();
  }
  if (io.signal.aborted) throw new Error(`stopped while the notes were embedded (${abortReason(io.signal).message}); what was embedded is kept`);
  return stalled ? null : semantic;
}

/** The note index of a folder, kept in its plugin folder as the plugin keeps it (fusing meaning when `semantic` is given). */
export function createCliNoteIndex(vault: FsVault, settings: CopilotSettings, io: CliIo, semantic?: { vectors(): VectorSide | null } | null): NoteIndex {
  return new NoteIndex({
    ...(semantic ? { vectors: () => semantic.vectors() } : {}),
    vault,
    store: new FsDataStore(pluginDataFolder(vault.root, vault.configDir)),
    getSettings: () => settings.search,
    timeZone: () => settings.timeZone,
    onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
    // Node has no UI thread to keep free; handing back through setImmediate costs nothing.
    yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
  });
}

/** A score as printed: four decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

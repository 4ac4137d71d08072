import { promises as fs } from "node:fs";
import { setImmediate } from "node:timers";
import { createSearchServices, type SearchPorts, type SearchServices, type SettingsSource } from "../app/createSearchServices";
import { MapSecretStore } from "../ports/SecretStore";
import type { CopilotSettings } from "../settings/settingsSchema";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import { idleTimeoutFromEnv } from "./idleTimeout";
import type { CliIo } from "./io";
import { nodePdfText } from "../documents/node/nodePdfText";
import { loadVaultSettings } from "./vaultSettings";

/** A command's setting-up: the folder, the vault's settings (flags over them) and the keys the flags gave. */
export interface CliSession {
  vault: FsVault;
  /** Changed in place by flags (`--max-iterations`, `--tools`, …): the command's own copy, never saved. */
  settings: CopilotSettings;
  secrets: MapSecretStore;
  /** How long a model or embeddings server may stay silent (VAULT_COPILOT_IDLE_TIMEOUT_MS; the default when undefined). */
  idleTimeoutMs?: number;
}

/**
 * Opens `--vault DIR` with the plugin's settings there (exclusions, folders, tools), for every
 * command. Throws Error for a missing folder.
 */
export async function openVaultSession(folder: string, io: CliIo): Promise<CliSession> {
  const stats = await fs.stat(folder).catch(() => null);
  if (!stats?.isDirectory()) throw new Error(`no folder at --vault "${folder}"`);
  const vault = new FsVault(folder, undefined, { onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`) });
  const settings = await loadVaultSettings(vault, io);
  const idleTimeoutMs = idleTimeoutFromEnv(io.env);
  return { vault, settings, secrets: new MapSecretStore(), ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}) };
}

/** The session's settings as the services read them: the command's own copy, changed in memory only. */
export function sessionSettings(session: CliSession): SettingsSource {
  const listeners = new Set<(settings: CopilotSettings) => void>();
  return {
    get: () => session.settings,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update: (change) => {
      session.settings = change(session.settings);
      for (const listener of [...listeners]) listener(session.settings);
      return Promise.resolve();
    },
  };
}

/** What the CLI adds to the search services: whether embedding stalled (the command then searches by words alone). */
export interface CliSearchServices extends SearchServices {
  /** Set when a silent embeddings server stopped the embedding. */
  readonly embeddingStalled: boolean;
}

/**
 * The search part of the service graph over the session's folder, for the commands that only
 * search (`search`, `similar`): the index and vectors kept in the vault's plugin folder as Obsidian
 * keeps them, so a second run reuses them. Nothing of the tools, runners or MCP loads.
 */
export function openCliSearchServices(session: CliSession, io: CliIo): CliSearchServices {
  const state = { stalled: false };
  const search = createSearchServices(cliSearchPorts(session, io, state));
  // A getter, so the flag is read when asked (Object.assign would copy its value once).
  return Object.defineProperty(search, "embeddingStalled", { get: () => state.stalled, enumerable: true }) as CliSearchServices;
}

/** The ports every command's services share: the folder, the session's settings and keys, Node's fetch, problems on stderr. */
export function cliSearchPorts(session: CliSession, io: CliIo, state: { stalled: boolean }): SearchPorts {
  return {
    vault: session.vault,
    dataStore: new FsDataStore(pluginDataFolder(session.vault.root, session.vault.configDir)),
    secrets: session.secrets,
    settings: sessionSettings(session),
    fetch,
    // pdfjs-dist in a worker thread, started with the first PDF read.
    pdfText: nodePdfText(),
    onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
    onEmbeddingProblem: ({ error, stopped }) => {
      state.stalled ||= stopped && error.kind === "timeout";
      const after = state.stalled ? "; notes are searched by words alone" : "";
      io.stderr(`vault-copilot: embeddings: ${error.message}${stopped ? " (the rest waits for the next run)" : ""}${after}\n`);
    },
    onEmbeddingQueryProblem: (error) => io.stderr(`vault-copilot: embeddings: ${error.message} This search is by words alone.\n`),
    // Node has no UI thread to keep free; handing back through setImmediate costs nothing.
    yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
    ...(session.idleTimeoutMs !== undefined ? { idleTimeoutMs: session.idleTimeoutMs } : {}),
  };
}

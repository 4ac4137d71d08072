import { promises as fs } from "node:fs";
import { createChatModel, type ChatModelHandle } from "../LLMProviders/chatModelFactory";
import { systemClock } from "../ports/Clock";
import type { NoteIndex } from "../search/NoteIndex";
import type { CopilotSettings } from "../settings/settingsSchema";
import { MapSecretStore, type SecretStore } from "../ports/SecretStore";
import type { ApprovalPort } from "../ports/approval";
import { initializeBuiltinTools } from "../tools/builtinTools";
import { searchOutsideChats } from "../history/searchOutsideChats";
import { EditHistory } from "../tools/edit/EditHistory";
import type { ToolDependencies } from "../tools/toolDependencies";
import { ToolRegistry } from "../tools/ToolRegistry";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import { idleTimeoutFromEnv } from "./idleTimeout";
import { plainHttp } from "../net/plainHttp";
export { createCliNoteIndex } from "./cliIndex";
import type { CliIo } from "./io";
import { loadVaultSettings } from "./vaultSettings";

/** The flags every model-driven command takes (`chat`, `agent`). */
export const MODEL_FLAGS = ["vault", "provider", "base-url", "model", "api-key-env"] as const;

/** `--provider` values: the wire format the server at `--base-url` speaks, as the preset that speaks it. */
const CLI_PROVIDERS = { openai: "custom", anthropic: "anthropic", gemini: "gemini" } as const;

/** Where the CLI keeps the key from `--api-key-env` (a SecretStore id, as in the plugin). */
const CLI_API_KEY_SECRET_ID = "cli-api-key";

/** A model-driven command's setting-up: the folder, the settings and the key, from the flags. */
export interface CliSession {
  vault: FsVault;
  settings: CopilotSettings;
  secrets: SecretStore;
  createModel: () => ChatModelHandle;
  /** How long the model may stay silent (from VAULT_COPILOT_IDLE_TIMEOUT_MS; the runners' default when undefined). */
  modelIdleTimeoutMs?: number;
}

/**
 * Reads `--vault`, `--provider`, `--base-url`, `--model` and `--api-key-env` over the vault's own
 * settings (see loadVaultSettings; the model comes from the flags: `--provider openai`, the
 * default, is any OpenAI-compatible server, `anthropic` and `gemini` their own APIs), so the
 * CLI runs what the plugin runs in that vault. Throws UsageError for a bad flag and Error for a
 * missing folder.
 */
export async function openCliSession(args: ParsedArgs, io: CliIo, overrides: Partial<CopilotSettings> = {}): Promise<CliSession> {
  const folder = stringFlag(args, "vault", true);
  const baseUrl = stringFlag(args, "base-url", true);
  const model = stringFlag(args, "model", true);
  const providerName = stringFlag(args, "provider") ?? "openai";
  if (!Object.hasOwn(CLI_PROVIDERS, providerName)) throw new UsageError(`--provider is one of ${Object.keys(CLI_PROVIDERS).join(", ")}, not "${providerName}"`);
  const preset = CLI_PROVIDERS[providerName as keyof typeof CLI_PROVIDERS];
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw new UsageError(`--base-url needs an http(s) URL, not "${baseUrl}"`);
  const modelIdleTimeoutMs = idleTimeoutFromEnv(io.env);
  const secrets = new MapSecretStore();
  const keyVariable = stringFlag(args, "api-key-env");
  if (keyVariable !== undefined) {
    const key = io.env[keyVariable];
    if (!key) throw new UsageError(`--api-key-env ${keyVariable}: that environment variable is not set`);
    secrets.set(CLI_API_KEY_SECRET_ID, key);
  }
  const stats = await fs.stat(folder).catch(() => null);
  if (!stats?.isDirectory()) throw new Error(`no folder at --vault "${folder}"`);

  const vault = new FsVault(folder, undefined, { onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`) });
  const loaded = await loadVaultSettings(vault, io);
  const settings: CopilotSettings = {
    ...loaded,
    ...overrides,
    provider: { ...loaded.provider, preset, baseUrl, model, apiKeySecretId: CLI_API_KEY_SECRET_ID },
  };
  return {
    vault,
    settings,
    secrets,
    createModel: () => createChatModel(settings.provider, { fetch, secrets }),
    ...(modelIdleTimeoutMs !== undefined ? { modelIdleTimeoutMs } : {}),
  };
}

/** The tools' dependencies over the session's folder, with the approval the flags chose. */
export function cliToolDependencies(session: CliSession, approval: ApprovalPort, search?: NoteIndex): ToolDependencies {
  return {
    vault: session.vault,
    clock: systemClock(session.settings.timeZone),
    http: plainHttp(fetch),
    secrets: session.secrets,
    approval,
    getSettings: () => session.settings,
    // Kept where the plugin keeps it, so an edit made here can be undone (here or in Obsidian).
    editHistory: new EditHistory(session.vault, new FsDataStore(pluginDataFolder(session.vault.root, session.vault.configDir))),
    ...(search ? { search: searchOutsideChats(search, () => session.settings.history.folder, session.vault.configDir) } : {}),
  };
}

/** A fresh registry holding the built-in tools (MCP tools join it when a config is given). */
export function createCliRegistry(dependencies: ToolDependencies): ToolRegistry {
  const registry = new ToolRegistry();
  initializeBuiltinTools(registry, dependencies);
  return registry;
}

/** The prompt: every positional argument, joined; required. */
export function promptOf(args: ParsedArgs, command: string): string {
  const prompt = args.positionals.join(" ").trim();
  if (!prompt) throw new UsageError(`${command} needs a PROMPT`);
  return prompt;
}

import { createServices, type Services } from "../app/createServices";
import type { RunApprovals } from "../ports/approval";
import type { CopilotSettings } from "../settings/settingsSchema";
import { ToolRegistry } from "../tools/ToolRegistry";
import { stringFlag, UsageError, type ParsedArgs } from "./args";
import { cliMcpTransports, type CliMcpTransports } from "./cliMcp";
import { nodeHtmlReader } from "./nodeHtmlReader";
import { cliSearchPorts, openVaultSession, type CliSearchServices, type CliSession } from "./cliSession";
import type { CliIo } from "./io";

export { openVaultSession, type CliSession } from "./cliSession";

/** The flags every model-driven command takes (`chat`, `agent`). */
export const MODEL_FLAGS = ["vault", "provider", "base-url", "model", "api-key-env", "project"] as const;

/** `--provider` values: the wire format the server at `--base-url` speaks, as the preset that speaks it. */
const CLI_PROVIDERS = { openai: "custom", anthropic: "anthropic", gemini: "gemini" } as const;

/** Where the CLI keeps the key from `--api-key-env` (a SecretStore id, as in the plugin). */
const CLI_API_KEY_SECRET_ID = "cli-api-key";

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
  // With --project the project note may name the model (see openProjectFlag).
  const model = args.flags.has("project") ? (stringFlag(args, "model") ?? "") : stringFlag(args, "model", true);
  const providerName = stringFlag(args, "provider") ?? "openai";
  if (!Object.hasOwn(CLI_PROVIDERS, providerName)) throw new UsageError(`--provider is one of ${Object.keys(CLI_PROVIDERS).join(", ")}, not "${providerName}"`);
  const preset = CLI_PROVIDERS[providerName as keyof typeof CLI_PROVIDERS];
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw new UsageError(`--base-url needs an http(s) URL, not "${baseUrl}"`);
  const keyVariable = stringFlag(args, "api-key-env");
  const key = keyVariable === undefined ? undefined : io.env[keyVariable];
  if (keyVariable !== undefined && !key) throw new UsageError(`--api-key-env ${keyVariable}: that environment variable is not set`);
  const session = await openVaultSession(folder, io);
  if (key) session.secrets.set(CLI_API_KEY_SECRET_ID, key);
  session.settings = {
    ...session.settings,
    ...overrides,
    provider: { ...session.settings.provider, preset, baseUrl, model, apiKeySecretId: CLI_API_KEY_SECRET_ID },
  };
  return session;
}

/** A command's services, and what the CLI adds to them. */
export interface CliServices extends Services, CliSearchServices {
  /** The transports MCP servers of a config file are started with (`--mcp-config`). */
  mcpTransports: CliMcpTransports;
}

/**
 * The service graph over the session's folder (src/app/createServices, as the plugin builds it),
 * with the approvals the flags chose for tool runs, Node's fetch, and the index, vectors and edit
 * history kept in the vault's plugin folder as Obsidian keeps them (so a second run reuses them,
 * and an edit made here can be undone there).
 */
export function openCliServices(session: CliSession, io: CliIo, approvals: RunApprovals): CliServices {
  const mcpTransports = cliMcpTransports(io.signal);
  const state = { stalled: false };
  const services = createServices({
    ...cliSearchPorts(session, io, state),
    approvals,
    registry: new ToolRegistry(),
    createMcpTransport: mcpTransports.create,
    // Web pages through linkedom and turndown; no image scaler: an image over the limits is left out, saying so.
    html: nodeHtmlReader(),
    // The values learnt while running (an MCP config's, the embeddings key) are kept out like the flags' keys.
    moreSecretValues: () => io.addedSecrets?.() ?? [],
  });
  // Bound now: the dispose below replaces it on the same object.
  const disposeServices = services.dispose.bind(services);
  // embeddingStalled is a getter, so the flag is read when asked (Object.assign would copy its value once).
  Object.defineProperty(services, "embeddingStalled", { get: () => state.stalled, enumerable: true });
  return Object.assign(services as Services & { readonly embeddingStalled: boolean }, {
    mcpTransports,
    dispose: async () => {
      try {
        await disposeServices();
      } finally {
        mcpTransports.close();
      }
    },
  });
}

/** The prompt: every positional argument, joined; required. */
export function promptOf(args: ParsedArgs, command: string): string {
  const prompt = args.positionals.join(" ").trim();
  if (!prompt) throw new UsageError(`${command} needs a PROMPT`);
  return prompt;
}

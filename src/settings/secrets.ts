import type { CopilotSettings } from "./settingsSchema";

/**
 * Where API keys live. In Obsidian this is the app's SecretStorage (keys never enter data.json);
 * the CLI reads them from environment variables. Nothing else in the code holds a key for longer
 * than one request needs it.
 */
export interface SecretStore {
  /** The secret's value, or null when none is stored under `id` (or `id` is ""). */
  get(id: string): string | null;
  set(id: string, value: string): void;
}

/** A SecretStore over a plain map (the CLI builds one from `--api-key-env`). */
export class MapSecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  get(id: string): string | null {
    return id ? (this.values.get(id) ?? null) : null;
  }

  set(id: string, value: string): void {
    this.values.set(id, value);
  }
}

/** Replaces every stored secret's value in `text` (for logs and the prompt debug view). */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let redacted = text;
  for (const secret of secrets) {
    if (secret.length >= 4) redacted = redacted.split(secret).join("[redacted]");
  }
  return redacted;
}

/**
 * The values of every secret the settings name, for redaction wherever text is shown: the
 * provider's key, the web-search keys, and each MCP server's environment values and headers (a
 * server that echoes its token must not put it on screen either).
 */
export function storedSecretValues(settings: CopilotSettings, secrets: SecretStore): string[] {
  const ids = [settings.provider.apiKeySecretId, settings.webSearch.braveApiKeySecretId, settings.webSearch.tavilyApiKeySecretId];
  for (const server of settings.mcpServers) ids.push(...Object.values(server.transport === "stdio" ? server.env : server.headers));
  return ids.flatMap((id) => secrets.get(id) ?? []);
}

import { secretRedactor } from "./secretRedactor";
import type { SecretStore } from "../ports/SecretStore";
import type { CopilotSettings } from "./settingsSchema";

/**
 * Replaces every stored secret's value in `text` with "[redacted]" (logs, the prompt debug view,
 * saved chats): each run of 12 or more of its characters in any letter case, and of its base64,
 * base64url and percent-encoded forms; a secret shorter than 12 characters whole and exact (see
 * secretRedactor.ts). Overlapping secrets (one inside another) leave no piece of either behind.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  return secretRedactor(secrets).redact(text);
}

/**
 * The values of every secret the settings name, for redaction wherever text is shown: the
 * keys of the default model, of the other configured models and of the embeddings server, the
 * web-search keys, and each MCP server's environment values and headers (a server that echoes its
 * token must not put it on screen either).
 */
export function storedSecretValues(settings: CopilotSettings, secrets: SecretStore): string[] {
  const ids = [settings.provider.apiKeySecretId, ...settings.models.map((model) => model.apiKeySecretId), settings.embeddings.apiKeySecretId, settings.webSearch.braveApiKeySecretId, settings.webSearch.tavilyApiKeySecretId];
  for (const server of settings.mcpServers) ids.push(...Object.values(server.transport === "stdio" ? server.env : server.headers));
  return ids.flatMap((id) => secrets.get(id) ?? []);
}

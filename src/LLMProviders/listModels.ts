import type { ProviderSettings } from "../settings/settingsSchema";
import type { SecretStore } from "../ports/SecretStore";
import type { FetchLike } from "../ports/FetchLike";
import { PROVIDER_PROFILES } from "./providerProfiles";

/** Most model names taken from a server's list (some list hundreds). */
const MAX_LISTED_MODELS = 200;

/**
 * The models an OpenAI-compatible server lists (`GET {baseUrl}/models`: OpenAI, Ollama, LM
 * Studio, OpenRouter), sorted by name. Resolves with an empty list when the server has no such
 * list or cannot be reached: the configured model is offered in any case.
 */
export async function listServerModels(provider: ProviderSettings, ports: { fetch: FetchLike; secrets: SecretStore }, signal?: AbortSignal): Promise<string[]> {
  const key = ports.secrets.get(provider.apiKeySecretId)?.trim();
  const headers: Record<string, string> = { accept: "application/json", ...PROVIDER_PROFILES[provider.preset].headers };
  if (key) headers.authorization = `Bearer ${key}`;
  try {
    const response = await ports.fetch(`${provider.baseUrl.replace(/\/+$/, "")}/models`, { method: "GET", headers, signal });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: Array<{ id?: unknown }> };
    const names = (body.data ?? []).map((entry) => entry.id).filter((id): id is string => typeof id === "string" && id.length > 0);
    return [...new Set(names)].sort().slice(0, MAX_LISTED_MODELS);
  } catch {
    return [];
  }
}

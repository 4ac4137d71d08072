import type { ProviderSettings } from "../../settings/settingsSchema";
import { ANTHROPIC_VERSION } from "../anthropic/AnthropicChatModel";
import type { ChatModelPorts } from "../chatModelFactory";
import { classifyModelError, ModelError } from "../../net/modelErrors";
import { PROVIDER_PROFILES } from "../providerProfiles";
import { throwIfFailed } from "../../net/httpStatusError";

/** Most model names taken from a server's list (some list hundreds). */
const MAX_LISTED_MODELS = 500;

export type ModelListing = {
  ok: true;
  models: string[];
  /** What the list says of each model's image input, where it says anything (OpenRouter's `architecture.input_modalities`). */
  imageInput: Record<string, boolean>;
} | { ok: false; error: ModelError };

/**
 * The models a provider's server offers, by its own list: `GET /models` for OpenAI-compatible
 * servers (OpenAI, LM Studio, OpenRouter), Ollama's `GET /api/tags` (it lists every pulled model
 * there), Anthropic's `GET /v1/models`, Gemini's `GET /models` (only those that generate content).
 * Sorted, without repeats. A failure is returned as the ModelError it is (refused key, unreachable …).
 */
export async function listProviderModels(provider: ProviderSettings, ports: ChatModelPorts, signal?: AbortSignal): Promise<ModelListing> {
  const profile = PROVIDER_PROFILES[provider.preset];
  const key = ports.secrets.get(provider.apiKeySecretId)?.trim() ?? "";
  // Nothing is asked of a provider that needs a key before one is stored (a fresh install would
  // otherwise call OpenAI the moment the chat view opens).
  if (!key && profile.requiresApiKey) {
    return { ok: false, error: new ModelError("missing-api-key", `No API key for ${profile.name}: add one in the settings (the provider's API key field).`) };
  }
  const base = provider.baseUrl.replace(/\/+$/, "");
  const headers: Record<string, string> = { accept: "application/json", ...profile.headers };
  let url = `${base}/models`;
  let read: (body: unknown) => unknown[] = (body) => (body as { data?: Array<{ id?: unknown }> }).data?.map((entry) => entry.id) ?? [];
  if (profile.wire === "anthropic") {
    headers["x-api-key"] = key;
    headers["anthropic-version"] = ANTHROPIC_VERSION;
    url = `${base}/models?limit=1000`;
  } else if (profile.wire === "gemini") {
    headers["x-goog-api-key"] = key;
    url = `${base}/models?pageSize=1000`;
    read = (body) =>
      ((body as { models?: Array<{ name?: unknown; supportedGenerationMethods?: unknown }> }).models ?? [])
        .filter((model) => !Array.isArray(model.supportedGenerationMethods) || model.supportedGenerationMethods.includes("generateContent"))
        .map((model) => (typeof model.name === "string" ? model.name.replace(/^models\//, "") : undefined));
  } else if (provider.preset === "ollama") {
    url = `${base.replace(/\/v1$/, "")}/api/tags`;
    read = (body) => (body as { models?: Array<{ name?: unknown }> }).models?.map((model) => model.name) ?? [];
  } else if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  try {
    const response = await ports.fetch(url, { method: "GET", headers, signal });
    await throwIfFailed(response, (body) => {
      const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
      return { message: typeof message === "string" ? message : "" };
    });
    const body: unknown = await response.json();
    const names = read(body).filter((name): name is string => typeof name === "string" && name.length > 0);
    const models = [...new Set(names)].sort().slice(0, MAX_LISTED_MODELS);
    return { ok: true, models, imageInput: listedImageInput(body, new Set(models)) };
  } catch (error) {
    return {
      ok: false,
      error: classifyModelError(error, { providerName: profile.name, baseUrl: provider.baseUrl, model: provider.model, unreachableHint: profile.unreachableHint, receivedAnything: false }, signal),
    };
  }
}

/**
 * Image input as an OpenAI-style list says it: OpenRouter gives each model
 * `architecture.input_modalities` (["text", "image"], …). Lists that say nothing give nothing.
 */
function listedImageInput(body: unknown, models: ReadonlySet<string>): Record<string, boolean> {
  const entries = (body as { data?: unknown } | null)?.data;
  const found: Record<string, boolean> = {};
  if (!Array.isArray(entries)) return found;
  for (const entry of entries as Array<{ id?: unknown; architecture?: { input_modalities?: unknown } }>) {
    const modalities = entry.architecture?.input_modalities;
    if (typeof entry.id === "string" && models.has(entry.id) && Array.isArray(modalities)) found[entry.id] = modalities.includes("image");
  }
  return found;
}

import { DEFAULT_SETTINGS } from "../../src/constants";
import { createChatModel, type ChatModelHandle } from "../../src/LLMProviders/chatModelFactory";
import type { ChainEvent } from "../../src/LLMProviders/chainRunner/ChainEvents";
import type { FetchLike } from "../../src/ports/FetchLike";
import type { RetryPolicy } from "../../src/net/retryPolicy";
import { toolSupportKey } from "../../src/LLMProviders/modelChoice";
import type { CopilotSettings, ProviderSettings } from "../../src/settings/settingsSchema";
import { MapSecretStore } from "../../src/ports/SecretStore";
import type { OpenAIServer } from "./openAIServer";

/** The API key the test provider is configured with (the payload recorder must never show it). */
export const TEST_API_KEY = "sk-test-0123456789abcdef";

/** Retries that wait a millisecond, so a 429 test does not sleep. */
export const FAST_RETRIES: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 50, random: () => 1 };

/** The defaults, pointed at a test server as a custom OpenAI-compatible provider. */
export function settingsFor(server: Pick<OpenAIServer, "baseUrl">, overrides: Partial<CopilotSettings> = {}, provider: Partial<ProviderSettings> = {}): CopilotSettings {
  const defaults = structuredClone(DEFAULT_SETTINGS);
  const model: ProviderSettings = { ...defaults.provider, ...overrides.provider, preset: "custom", baseUrl: server.baseUrl, model: "test-model", apiKeySecretId: "test-key", ...provider };
  return {
    ...defaults,
    // The scripted servers take tools, and the settings know it (as after Test connection).
    modelToolSupport: { [toolSupportKey(model)]: true },
    ...overrides,
    provider: model,
  };
}

/** A model factory over the settings, with the test key stored and Node's fetch (or `fetch`). */
export function modelFactory(getSettings: () => CopilotSettings, fetch: FetchLike = globalThis.fetch): () => ChatModelHandle {
  const secrets = new MapSecretStore();
  secrets.set("test-key", TEST_API_KEY);
  return () => createChatModel(getSettings().provider, { fetch, secrets });
}

/** Collects a run's events. */
export function eventLog(): { events: ChainEvent[]; onEvent: (event: ChainEvent) => void; streamedText: (step?: number) => string } {
  const events: ChainEvent[] = [];
  return {
    events,
    onEvent: (event) => events.push(event),
    streamedText: (step) =>
      events
        .filter((event): event is Extract<ChainEvent, { type: "text-delta" }> => event.type === "text-delta" && (step === undefined || event.step === step))
        .map((event) => event.text)
        .join(""),
  };
}

/** The content of a recorded request message as text. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? "").join("");
  return "";
}

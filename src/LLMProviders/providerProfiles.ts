import type { PROVIDER_PRESETS } from "../settings/settingsSchema";

export type ProviderPresetId = (typeof PROVIDER_PRESETS)[number];

/** The request and stream format a provider speaks. */
export type WireFormat = "openai" | "anthropic" | "gemini";

/** What the model client needs to know about a provider besides its base URL. */
export interface ProviderProfile {
  wire: WireFormat;
  /** The provider's name in error messages. */
  name: string;
  /** Whether requests are refused without a key (local servers take any or none). */
  requiresApiKey: boolean;
  /** Headers the provider asks clients to send. */
  headers: Readonly<Record<string, string>>;
  /** What to check when the server cannot be reached. */
  unreachableHint: string;
}

export const PROVIDER_PROFILES: Readonly<Record<ProviderPresetId, ProviderProfile>> = {
  openai: {
    wire: "openai",
    name: "OpenAI",
    requiresApiKey: true,
    headers: {},
    unreachableHint: "Check the internet connection and the base URL.",
  },
  anthropic: {
    wire: "anthropic",
    name: "Anthropic",
    requiresApiKey: true,
    headers: {},
    unreachableHint: "Check the internet connection and the base URL.",
  },
  gemini: {
    wire: "gemini",
    name: "Google Gemini",
    requiresApiKey: true,
    headers: {},
    unreachableHint: "Check the internet connection and the base URL.",
  },
  ollama: {
    wire: "openai",
    name: "Ollama",
    requiresApiKey: false,
    headers: {},
    unreachableHint: "Is Ollama running (`ollama serve`) and listening at this address?",
  },
  lmstudio: {
    wire: "openai",
    name: "LM Studio",
    requiresApiKey: false,
    headers: {},
    unreachableHint: "Is LM Studio's local server started (Developer tab) at this address?",
  },
  openrouter: {
    wire: "openai",
    name: "OpenRouter",
    requiresApiKey: true,
    // OpenRouter's documented attribution headers; optional, but they name the app in its dashboard.
    headers: { "HTTP-Referer": "https://obsidian.md", "X-Title": "Vault Copilot" },
    unreachableHint: "Check the internet connection and the base URL.",
  },
  custom: {
    wire: "openai",
    name: "the model server",
    requiresApiKey: false,
    headers: {},
    unreachableHint: "Check the base URL and that the server is running.",
  },
};

/**
 * Sent as the key where none is needed: the OpenAI client refuses to start without one, and local
 * servers ignore it.
 */
export const NO_API_KEY = "no-key";

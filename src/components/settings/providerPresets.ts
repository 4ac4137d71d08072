import type { PROVIDER_PRESETS } from "../../settings/settingsSchema";

export type ProviderPresetId = (typeof PROVIDER_PRESETS)[number];

export interface ProviderPreset {
  /** Shown in the provider dropdown. */
  label: string;
  /** The API root the preset fills in; null for "custom" (the user's own). */
  baseUrl: string | null;
}

/** The providers the settings tab offers (the wire format of each is in providerProfiles.ts). */
export const PROVIDER_PRESET_DETAILS: Readonly<Record<ProviderPresetId, ProviderPreset>> = {
  openai: { label: "OpenAI", baseUrl: "https://api.openai.com/v1" },
  anthropic: { label: "Anthropic (Claude)", baseUrl: "https://api.anthropic.com/v1" },
  gemini: { label: "Google Gemini", baseUrl: "https://generativelanguage.googleapis.com/v1beta" },
  ollama: { label: "Ollama (on this computer)", baseUrl: "http://127.0.0.1:11434/v1" },
  lmstudio: { label: "LM Studio (on this computer)", baseUrl: "http://127.0.0.1:1234/v1" },
  openrouter: { label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1" },
  custom: { label: "Other OpenAI-compatible server", baseUrl: null },
};

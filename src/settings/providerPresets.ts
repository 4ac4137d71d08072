import type { PROVIDER_PRESETS } from "./settingsSchema";

export type ProviderPresetId = (typeof PROVIDER_PRESETS)[number];

export interface ProviderPreset {
  /** Shown in the provider dropdown. */
  label: string;
  /** The OpenAI-compatible endpoint the preset fills in; null for "custom" (the user's own). */
  baseUrl: string | null;
}

/** The providers the settings tab offers; all speak the OpenAI chat-completions wire format. */
export const PROVIDER_PRESET_DETAILS: Readonly<Record<ProviderPresetId, ProviderPreset>> = {
  openai: { label: "OpenAI", baseUrl: "https://api.openai.com/v1" },
  ollama: { label: "Ollama (on this computer)", baseUrl: "http://127.0.0.1:11434/v1" },
  lmstudio: { label: "LM Studio (on this computer)", baseUrl: "http://127.0.0.1:1234/v1" },
  openrouter: { label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1" },
  custom: { label: "Other OpenAI-compatible server", baseUrl: null },
};

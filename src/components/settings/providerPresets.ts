import type { PROVIDER_PRESETS } from "../../settings/settingsSchema";
import { t } from "../../i18n/t";
import type { MessageKey } from "../../i18n/messages";

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

/** The presets whose label holds words besides a product's name: those words are in the tables. */
const LABEL_KEYS = { ollama: "preset.ollama", lmstudio: "preset.lmstudio", custom: "preset.custom" } as const satisfies Partial<Record<ProviderPresetId, MessageKey>>;

/** A preset's label in the interface's language. */
export function presetLabel(id: ProviderPresetId): string {
  return Object.hasOwn(LABEL_KEYS, id) ? t(LABEL_KEYS[id as keyof typeof LABEL_KEYS]) : PROVIDER_PRESET_DETAILS[id].label;
}

/** The presets as a dropdown's choices: id -> label. */
export function presetChoices(): Record<ProviderPresetId, string> {
  return Object.fromEntries(Object.keys(PROVIDER_PRESET_DETAILS).map((id) => [id, presetLabel(id as ProviderPresetId)])) as Record<ProviderPresetId, string>;
}

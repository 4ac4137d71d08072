import type { CopilotSettings, ProviderSettings } from "../settings/settingsSchema";

/**
 * The settings a chat's model answers with. A chat names its model; a configured model of that
 * name (the default or one of the others) brings its own provider, key and prices; any other name
 * (one the default's server lists) is asked of the default model's server.
 */
export function modelSettingsFor(settings: CopilotSettings, model: string): ProviderSettings {
  if (model === settings.provider.model) return settings.provider;
  const configured = settings.models.find((candidate) => candidate.model === model);
  return configured ?? { ...settings.provider, model };
}

/** The names of the configured models, the default first. */
export function configuredModelNames(settings: CopilotSettings): string[] {
  return [settings.provider.model, ...settings.models.map((model) => model.model).filter((name) => name !== settings.provider.model)];
}

/**
 * Makes `model` the default: it takes the default's place and the old default joins the others,
 * so nothing configured is lost. A name not configured becomes the default's model name.
 */
export function makeDefaultModel(settings: CopilotSettings, model: string): CopilotSettings {
  if (model === settings.provider.model) return settings;
  const chosen = modelSettingsFor(settings, model);
  const others = settings.models.filter((candidate) => candidate.model !== model);
  return { ...settings, provider: chosen, models: [settings.provider, ...others] };
}

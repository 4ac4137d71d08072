import type { ChatMode, CopilotSettings, ProviderSettings } from "../settings/settingsSchema";

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

/** The key a model's tool support is kept under: its wire format, its server and its name. */
export function toolSupportKey(provider: Pick<ProviderSettings, "preset" | "baseUrl" | "model">): string {
  return `${provider.preset} ${provider.baseUrl} ${provider.model}`;
}

/** Whether `model` is known to take tools (true), known not to (false), or not known yet (null). */
export function knownToTakeTools(settings: CopilotSettings, model: string): boolean | null {
  return settings.modelToolSupport[toolSupportKey(modelSettingsFor(settings, model))] ?? null;
}

/** The settings with what was just seen of `model`'s tool calling. */
export function withToolSupport(settings: CopilotSettings, model: string, takesTools: boolean): CopilotSettings {
  const key = toolSupportKey(modelSettingsFor(settings, model));
  if (settings.modelToolSupport[key] === takesTools) return settings;
  return { ...settings, modelToolSupport: { ...settings.modelToolSupport, [key]: takesTools } };
}

/** The mode a new chat with `model` starts in: the settings' mode, but Agent only for a model known to take tools. */
export function newChatMode(settings: CopilotSettings, model: string): ChatMode {
  return settings.defaultMode === "agent" && knownToTakeTools(settings, model) !== true ? "chat" : settings.defaultMode;
}

/** Whether `model` is known to take images (true), known not to (false), or not known (null). */
export function knownToTakeImages(settings: CopilotSettings, model: string): boolean | null {
  return settings.modelImageSupport[toolSupportKey(modelSettingsFor(settings, model))] ?? null;
}

/** The settings with `model`'s image input set (true, false, or null: not known). */
export function withImageSupport(settings: CopilotSettings, model: string, takesImages: boolean | null): CopilotSettings {
  const key = toolSupportKey(modelSettingsFor(settings, model));
  if ((settings.modelImageSupport[key] ?? null) === takesImages) return settings;
  const { [key]: _old, ...others } = settings.modelImageSupport;
  return { ...settings, modelImageSupport: takesImages === null ? others : { ...others, [key]: takesImages } };
}

/**
 * The settings with what the server's model list says of image input, for the models the user has
 * not set themselves: a setting the user made stays as they made it.
 */
export function withListedImageSupport(settings: CopilotSettings, provider: ProviderSettings, listed: Readonly<Record<string, boolean>>): CopilotSettings {
  let changed = false;
  const support = { ...settings.modelImageSupport };
  for (const [model, takesImages] of Object.entries(listed)) {
    const key = toolSupportKey({ ...provider, model });
    if (key in support) continue;
    support[key] = takesImages;
    changed = true;
  }
  return changed ? { ...settings, modelImageSupport: support } : settings;
}

/**
 * Model-specific quirks, and only those: everything else is the same for every model behind an
 * OpenAI-compatible endpoint. Names are matched without a router prefix ("openai/o3" is "o3").
 */
export interface ModelQuirks {
  /** OpenAI's reasoning models accept only their default temperature and reject any other. */
  acceptsTemperature: boolean;
  /** The first reasoning models (o1-mini, o1-preview) reject the system role. */
  acceptsSystemMessage: boolean;
}

export function modelQuirks(model: string): ModelQuirks {
  const name = model.toLowerCase().split("/").pop() ?? "";
  const reasoning = /^(o\d+(-|$)|gpt-5)/.test(name);
  return {
    acceptsTemperature: !reasoning,
    acceptsSystemMessage: !/^o1-(mini|preview)/.test(name),
  };
}

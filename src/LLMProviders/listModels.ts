import type { ProviderSettings } from "../settings/settingsSchema";
import type { ChatModelPorts } from "./chatModelFactory";
import { listProviderModels } from "./connection/listProviderModels";

/** The models a server lists, and what its list says of their image input. */
export interface ServerModels {
  models: string[];
  /** Model name → takes images, for the models whose listing says. */
  imageInput: Record<string, boolean>;
}

/**
 * The models the provider's server lists, for the model picker; an empty list when it has no such
 * list or cannot be reached (the configured models are offered in any case).
 */
export async function listServerModels(provider: ProviderSettings, ports: ChatModelPorts, signal?: AbortSignal): Promise<ServerModels> {
  const listing = await listProviderModels(provider, ports, signal);
  return listing.ok ? { models: listing.models, imageInput: listing.imageInput } : { models: [], imageInput: {} };
}

import type { ProviderSettings } from "../settings/settingsSchema";
import type { ChatModelPorts } from "./chatModelFactory";
import { listProviderModels } from "./connection/listProviderModels";

/**
 * The models the provider's server lists, for the model picker; an empty list when it has no such
 * list or cannot be reached (the configured models are offered in any case).
 */
export async function listServerModels(provider: ProviderSettings, ports: ChatModelPorts, signal?: AbortSignal): Promise<string[]> {
  const listing = await listProviderModels(provider, ports, signal);
  return listing.ok ? listing.models : [];
}

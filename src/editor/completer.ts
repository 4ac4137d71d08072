import { PROVIDER_PROFILES } from "../LLMProviders/providerProfiles";
import { ModelError } from "../net/modelErrors";
import type { FetchLike } from "../ports/FetchLike";
import type { SecretStore } from "../ports/SecretStore";
import type { CompletionSettings } from "../settings/settingsSchema";
import { sendCompletion, type CompletionResult } from "./completionClient";
import type { CompletionContext } from "./completionContext";
import { buildCompletionRequest } from "./completionRequest";

export interface CompleterPorts {
  settings(): CompletionSettings;
  secrets: SecretStore;
  fetch: FetchLike;
}

/**
 * The completion model as a function of the context: builds the request from the completion
 * settings read now (a change in the settings takes effect at the next pause) and sends it.
 * Throws a ModelError ("missing-api-key") before sending anything when the provider needs a key
 * and none is stored.
 */
export function completer(ports: CompleterPorts): (context: CompletionContext, signal: AbortSignal, onText?: (text: string) => void) => Promise<CompletionResult> {
  return (context, signal, onText) => {
    const settings = ports.settings();
    const provider = settings.model;
    const profile = PROVIDER_PROFILES[provider.preset];
    const key = ports.secrets.get(provider.apiKeySecretId)?.trim() ?? "";
    if (!key && profile.requiresApiKey) {
      return Promise.reject(new ModelError("missing-api-key", `No API key for ${profile.name}: add one under Inline completion in the settings.`));
    }
    const request = buildCompletionRequest({ provider, fillInTheMiddle: settings.fillInTheMiddle }, context, key);
    return sendCompletion(request, context, ports.fetch, signal, onText);
  };
}

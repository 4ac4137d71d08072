import { PROVIDER_PROFILES } from "../LLMProviders/providerProfiles";
import { ModelError } from "../net/modelErrors";
import type { FetchLike } from "../ports/FetchLike";
import type { SecretStore } from "../ports/SecretStore";
import type { CompletionSettings } from "../settings/settingsSchema";
import { sendCompletion, type CompletionResult } from "./completionClient";
import type { CompletionContext } from "./completionContext";
import { passagesWithin, relatedPassages } from "./relatedPassages";
import type { NoteSearcher } from "../ports/NoteSearcher";
import type { Scheduler } from "../ports/timers";
import { buildCompletionRequest, fillsInTheMiddle, type CompletionModel } from "./completionRequest";

export interface CompleterPorts {
  settings(): CompletionSettings;
  secrets: SecretStore;
  fetch: FetchLike;
  /** Note search for the related passages (the settings' "Related notes"); without it none are sent. */
  search?: NoteSearcher;
  /** Why the related passages were left out of a request (a failed search), for the console. */
  onProblem?: (message: string) => void;
  /** Timers for the passages' time budget (tests hand in a fake). */
  scheduler?: Scheduler;
  /** The longest a request waits for its passages (RELATED_PASSAGES_BUDGET_MS when absent). */
  relatedBudgetMs?: number;
}

/**
 * The longest a completion in the editor waits for its related passages: past it, it goes without
 * them. A search over the stored index answers well within it; an index still being built does not.
 */
export const RELATED_PASSAGES_BUDGET_MS = 150;

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
    const model = completionModel(settings);
    return withRelated(ports, settings, context, signal).then((full) => sendCompletion(buildCompletionRequest(model, full, key), full, ports.fetch, signal, onText));
  };
}

function completionModel(settings: CompletionSettings): CompletionModel {
  return { provider: settings.model, fillInTheMiddle: settings.fillInTheMiddle };
}

/**
 * Whether a request made with these settings carries related passages: *Related notes* on, and
 * not a fill-in-the-middle request, whose prompt is the note's raw text (text put before it would
 * be continued as if the user had written it).
 */
export function sendsRelatedPassages(settings: CompletionSettings): boolean {
  return settings.relatedNotes && !fillsInTheMiddle(completionModel(settings));
}

/** The context with the related passages added, when the settings send them and a search is at hand. */
async function withRelated(ports: CompleterPorts, settings: CompletionSettings, context: CompletionContext, signal: AbortSignal): Promise<CompletionContext> {
  const { search } = ports;
  if (!search || !sendsRelatedPassages(settings)) return context;
  const related = await passagesWithin((lookup) => relatedPassages(search, context, lookup), {
    budgetMs: ports.relatedBudgetMs ?? RELATED_PASSAGES_BUDGET_MS,
    signal,
    ...(ports.scheduler ? { scheduler: ports.scheduler } : {}),
    ...(ports.onProblem ? { onProblem: ports.onProblem } : {}),
  });
  return related.length > 0 ? { ...context, related } : context;
}

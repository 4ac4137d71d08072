import { HumanMessage } from "@langchain/core/messages";
import type { ProviderSettings } from "../../settings/settingsSchema";
import { createChatModel, type ChatModelPorts } from "../chatModelFactory";
import { ModelError, classifyModelError, type ModelErrorKind } from "../../net/modelErrors";
import { listProviderModels } from "./listProviderModels";

/** One check of "Test connection": passed, failed, or not known (a server without a model list). */
export interface ConnectionCheck {
  name: "reachable" | "key accepted" | "model present" | "tools supported";
  outcome: "yes" | "no" | "unknown";
  detail: string;
  /** What `detail` says, by case, for a view that says it in its own language (empty detail: "none"); present when asked for (`cases`). */
  said?: ConnectionDetail;
}

/** A check's detail by case: the models named are the server's, an error by its model error's kind. */
export type ConnectionDetail =
  | { code: "none" | "answered" | "request-answered" | "tool-accepted" | "key-taken" }
  | { code: "lists-models"; count: number }
  | { code: "model-answered" | "model-answered-unlisted"; model: string }
  | { code: "error" | "tools-refused"; error: ModelErrorKind }
  | { code: "model-missing"; error: ModelErrorKind; models: string };

export interface ConnectionVerdict {
  ok: boolean;
  checks: ConnectionCheck[];
  /** The server's models (empty when it lists none). */
  models: string[];
}

/** A tool the test request binds: cheap to describe, never run. */
const PROBE_TOOL = {
  type: "function" as const,
  function: { name: "connection_check", description: "Reports that the connection works.", parameters: { type: "object", properties: { ok: { type: "boolean" } } } },
};

/**
 * "Test connection": is the server reachable, does it accept the key, does it have the model, and
 * does it take a request with a tool bound (a short one: one word asked, a tool offered, at most
 * 16 tokens). Each check says what it saw; a check that cannot be made after an earlier failure is
 * left out.
 */
export async function testConnection(provider: ProviderSettings, ports: ChatModelPorts, signal?: AbortSignal, options: { cases?: boolean } = {}): Promise<ConnectionVerdict> {
  const checks: ConnectionCheck[] = [];
  // Each check's case goes with it only when the caller words the details itself (the settings in another language).
  const check = (found: Required<ConnectionCheck>): void => {
    const { said, ...plain } = found;
    checks.push(options.cases ? found : plain);
  };
  const listing = await listProviderModels(provider, ports, signal);
  const models = listing.ok ? listing.models : [];
  if (!listing.ok) {
    const { kind, message } = listing.error;
    if (kind === "unreachable" || kind === "timeout") {
      check({ name: "reachable", outcome: "no", detail: message, said: { code: "error", error: kind } });
      return { ok: false, checks, models };
    }
    check({ name: "reachable", outcome: "yes", detail: "The server answered.", said: { code: "answered" } });
    if (kind === "authentication") {
      check({ name: "key accepted", outcome: "no", detail: message, said: { code: "error", error: kind } });
      return { ok: false, checks, models };
    }
  } else {
    check({ name: "reachable", outcome: "yes", detail: `The server answered and lists ${models.length} model${models.length === 1 ? "" : "s"}.`, said: { code: "lists-models", count: models.length } });
  }

  // The request with a tool is the real test of the key, the model and tools together.
  try {
    const handle = createChatModel({ ...provider, maxTokens: 16 }, ports);
    const stream = await handle.chatModel.bindTools([PROBE_TOOL]).stream([new HumanMessage("Reply with one word: ready.")], { signal: signal ?? new AbortController().signal });
    // Read to the end: a stream that breaks is a failed test.
    const reader = stream[Symbol.asyncIterator]();
    while (!(await reader.next()).done);
    check({ name: "key accepted", outcome: "yes", detail: "A request was answered.", said: { code: "request-answered" } });
    const unlisted = listing.ok && models.length > 0 && !models.includes(provider.model);
    check({
      name: "model present",
      outcome: "yes",
      detail: unlisted ? `"${provider.model}" answered, though the server does not list it.` : `"${provider.model}" answered.`,
      said: { code: unlisted ? "model-answered-unlisted" : "model-answered", model: provider.model },
    });
    check({ name: "tools supported", outcome: "yes", detail: "A request offering a tool was accepted.", said: { code: "tool-accepted" } });
    return { ok: true, checks, models };
  } catch (error) {
    const failure = error instanceof ModelError ? error : classifyModelError(error, { providerName: provider.preset, baseUrl: provider.baseUrl, model: provider.model, unreachableHint: "", receivedAnything: false }, signal);
    if (failure.kind === "missing-api-key" || failure.kind === "authentication") {
      check({ name: "key accepted", outcome: "no", detail: failure.message, said: { code: "error", error: failure.kind } });
    } else if (failure.kind === "model-not-found") {
      check({ name: "key accepted", outcome: "yes", detail: "The server took the key.", said: { code: "key-taken" } });
      const lists = listing.ok && models.length > 0 ? `${models.slice(0, 8).join(", ")}${models.length > 8 ? ", …" : ""}` : "";
      check({
        name: "model present",
        outcome: "no",
        detail: lists ? `${failure.message} It lists: ${lists}.` : failure.message,
        said: lists ? { code: "model-missing", error: failure.kind, models: lists } : { code: "error", error: failure.kind },
      });
    } else if (failure.kind === "bad-request" && /tool|function/i.test(failure.message)) {
      check({ name: "key accepted", outcome: "yes", detail: "The server took the key.", said: { code: "key-taken" } });
      check({ name: "model present", outcome: listing.ok && models.includes(provider.model) ? "yes" : "unknown", detail: "", said: { code: "none" } });
      check({ name: "tools supported", outcome: "no", detail: `${failure.message} The agent needs a model that takes tools; chat and vault QA still work.`, said: { code: "tools-refused", error: failure.kind } });
    } else {
      check({ name: "key accepted", outcome: "unknown", detail: failure.message, said: { code: "error", error: failure.kind } });
    }
    return { ok: false, checks, models };
  }
}

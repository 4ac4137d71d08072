import { HumanMessage } from "@langchain/core/messages";
import type { ProviderSettings } from "../../settings/settingsSchema";
import { createChatModel, type ChatModelPorts } from "../chatModelFactory";
import { ModelError, classifyModelError } from "../../net/modelErrors";
import { listProviderModels } from "./listProviderModels";

/** One check of "Test connection": passed, failed, or not known (a server without a model list). */
export interface ConnectionCheck {
  name: "reachable" | "key accepted" | "model present" | "tools supported";
  outcome: "yes" | "no" | "unknown";
  detail: string;
}

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
export async function testConnection(provider: ProviderSettings, ports: ChatModelPorts, signal?: AbortSignal): Promise<ConnectionVerdict> {
  const checks: ConnectionCheck[] = [];
  const listing = await listProviderModels(provider, ports, signal);
  const models = listing.ok ? listing.models : [];
  if (!listing.ok) {
    const { kind, message } = listing.error;
    if (kind === "unreachable" || kind === "timeout") {
      checks.push({ name: "reachable", outcome: "no", detail: message });
      return { ok: false, checks, models };
    }
    checks.push({ name: "reachable", outcome: "yes", detail: "The server answered." });
    if (kind === "authentication") {
      checks.push({ name: "key accepted", outcome: "no", detail: message });
      return { ok: false, checks, models };
    }
  } else {
    checks.push({ name: "reachable", outcome: "yes", detail: `The server answered and lists ${models.length} model${models.length === 1 ? "" : "s"}.` });
  }

  // The request with a tool is the real test of the key, the model and tools together.
  try {
    const handle = createChatModel({ ...provider, maxTokens: 16 }, ports);
    const stream = await handle.chatModel.bindTools([PROBE_TOOL]).stream([new HumanMessage("Reply with one word: ready.")], { signal: signal ?? new AbortController().signal });
    // Read to the end: a stream that breaks is a failed test.
    const reader = stream[Symbol.asyncIterator]();
    while (!(await reader.next()).done);
    checks.push({ name: "key accepted", outcome: "yes", detail: "A request was answered." });
    const listed = listing.ok && models.length > 0;
    checks.push({
      name: "model present",
      outcome: "yes",
      detail: listed && !models.includes(provider.model) ? `"${provider.model}" answered, though the server does not list it.` : `"${provider.model}" answered.`,
    });
    checks.push({ name: "tools supported", outcome: "yes", detail: "A request offering a tool was accepted." });
    return { ok: true, checks, models };
  } catch (error) {
    const failure = error instanceof ModelError ? error : classifyModelError(error, { providerName: provider.preset, baseUrl: provider.baseUrl, model: provider.model, unreachableHint: "", receivedAnything: false }, signal);
    if (failure.kind === "missing-api-key" || failure.kind === "authentication") {
      checks.push({ name: "key accepted", outcome: "no", detail: failure.message });
    } else if (failure.kind === "model-not-found") {
      checks.push({ name: "key accepted", outcome: "yes", detail: "The server took the key." });
      checks.push({ name: "model present", outcome: "no", detail: listing.ok && models.length > 0 ? `${failure.message} It lists: ${models.slice(0, 8).join(", ")}${models.length > 8 ? ", …" : ""}.` : failure.message });
    } else if (failure.kind === "bad-request" && /tool|function/i.test(failure.message)) {
      checks.push({ name: "key accepted", outcome: "yes", detail: "The server took the key." });
      checks.push({ name: "model present", outcome: listing.ok && models.includes(provider.model) ? "yes" : "unknown", detail: "" });
      checks.push({ name: "tools supported", outcome: "no", detail: `${failure.message} The agent needs a model that takes tools; chat and vault QA still work.` });
    } else {
      checks.push({ name: "key accepted", outcome: "unknown", detail: failure.message });
    }
    return { ok: false, checks, models };
  }
}

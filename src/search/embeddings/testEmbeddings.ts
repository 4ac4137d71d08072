import { errorMessage } from "../../errorMessage";
import type { FetchLike } from "../../ports/FetchLike";
import type { SecretStore } from "../../ports/SecretStore";
import { classifyModelError, ModelError } from "../../net/modelErrors";
import type { EmbeddingSettings } from "../../settings/settingsSchema";
import { createEmbeddingClient, EmbeddingResponseError, UnusableVectorsError } from "./embeddingClient";

/** What "Test" under the embeddings server found: whether it works, in one sentence either way. */
export interface EmbeddingsVerdict {
  ok: boolean;
  message: string;
}

/** The text the test embeds: short, so the request costs next to nothing. */
const PROBE_TEXT = "Vault Copilot checks the embeddings server.";

/**
 * Embeds one short text with the embeddings settings as they are (address, model, key), through
 * the same client the index uses: a real request to `{baseUrl}/embeddings`. Says what came back
 * (the vectors' length) or why it failed, in a sentence that names what to check.
 */
export async function testEmbeddings(settings: EmbeddingSettings, ports: { fetch: FetchLike; secrets: SecretStore }, signal?: AbortSignal): Promise<EmbeddingsVerdict> {
  const key = ports.secrets.get(settings.apiKeySecretId)?.trim();
  const client = createEmbeddingClient({ fetch: ports.fetch, baseUrl: settings.baseUrl, model: settings.model, ...(key ? { apiKey: key } : {}) });
  try {
    const [vector] = await client.embed([PROBE_TEXT], signal);
    return { ok: true, message: `The server answered: "${settings.model}" gives vectors of ${vector?.length ?? 0} numbers.` };
  } catch (error) {
    return { ok: false, message: failureSentence(error, settings, signal) };
  }
}

function failureSentence(error: unknown, settings: EmbeddingSettings, signal: AbortSignal | undefined): string {
  if (error instanceof EmbeddingResponseError || error instanceof UnusableVectorsError) return error.message;
  const where = `The embeddings server (${settings.baseUrl})`;
  const failure =
    error instanceof ModelError
      ? error
      : classifyModelError(error, { providerName: "The embeddings server", baseUrl: settings.baseUrl, model: settings.model, unreachableHint: "", receivedAnything: false }, signal);
  switch (failure.kind) {
    case "unreachable":
      return `${where} cannot be reached (${reasonOf(failure.message)}). Check the address and that the server is running.`;
    case "authentication":
      return `${where} refused the key. Check the embeddings API key.`;
    case "model-not-found":
      return `${where} has no model "${settings.model}". Check the embeddings model's name.`;
    case "endpoint-not-found":
      return `${where} has no /embeddings endpoint. Check the base URL: it usually ends in /v1.`;
    case "timeout":
      return `${where} did not answer in time. Check that it is running and not busy.`;
    default:
      return failure.message || errorMessage(error);
  }
}

/** The reason in brackets of an "unreachable" message ("connection refused"), or the message. */
function reasonOf(message: string): string {
  return /\(([^()]+)\)\./.exec(message)?.[1] ?? message;
}

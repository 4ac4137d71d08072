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
  /** What `message` says, by case, for a view in another language ("other": only the message says it); present when asked for (`cases`). */
  said?: EmbeddingsTestResult;
}

export type EmbeddingsTestResult =
  | { code: "answered"; model: string; size: number }
  | { code: "unreachable" | "authentication" | "model-not-found" | "endpoint-not-found" | "timeout" | "unusable-answer"; baseUrl: string; model: string }
  | { code: "other" };

/** The text the test embeds: short, so the request costs next to nothing. */
const PROBE_TEXT = "Vault Copilot checks the embeddings server.";

/**
 * Embeds one short text with the embeddings settings as they are (address, model, key), through
 * the same client the index uses: a real request to `{baseUrl}/embeddings`. Says what came back
 * (the vectors' length) or why it failed, in a sentence that names what to check.
 */
export async function testEmbeddings(
  settings: EmbeddingSettings,
  ports: { fetch: FetchLike; secrets: SecretStore },
  signal?: AbortSignal,
  options: { cases?: boolean } = {},
): Promise<EmbeddingsVerdict> {
  const verdict = await verdictOf(settings, ports, signal);
  if (options.cases) return verdict;
  const { said, ...plain } = verdict;
  return plain;
}

async function verdictOf(settings: EmbeddingSettings, ports: { fetch: FetchLike; secrets: SecretStore }, signal: AbortSignal | undefined): Promise<Required<EmbeddingsVerdict>> {
  const key = ports.secrets.get(settings.apiKeySecretId)?.trim();
  const client = createEmbeddingClient({ fetch: ports.fetch, baseUrl: settings.baseUrl, model: settings.model, ...(key ? { apiKey: key } : {}) });
  try {
    const [vector] = await client.embed([PROBE_TEXT], signal);
    const size = vector?.length ?? 0;
    return { ok: true, message: `The server answered: "${settings.model}" gives vectors of ${size} numbers.`, said: { code: "answered", model: settings.model, size } };
  } catch (error) {
    return { ok: false, ...failureSentence(error, settings, signal) };
  }
}

function failureSentence(error: unknown, settings: EmbeddingSettings, signal: AbortSignal | undefined): Pick<Required<EmbeddingsVerdict>, "message" | "said"> {
  // The message keeps what was wrong with the answer (English, the server's own data); the case says only that it cannot be used.
  if (error instanceof EmbeddingResponseError || error instanceof UnusableVectorsError) return { message: error.message, said: { code: "unusable-answer", baseUrl: settings.baseUrl, model: settings.model } };
  const where = `The embeddings server (${settings.baseUrl})`;
  const failure =
    error instanceof ModelError
      ? error
      : classifyModelError(error, { providerName: "The embeddings server", baseUrl: settings.baseUrl, model: settings.model, unreachableHint: "", receivedAnything: false }, signal);
  const said = (code: "unreachable" | "authentication" | "model-not-found" | "endpoint-not-found" | "timeout", message: string) => ({ message, said: { code, baseUrl: settings.baseUrl, model: settings.model } });
  switch (failure.kind) {
    case "unreachable":
      return said("unreachable", `${where} cannot be reached (${reasonOf(failure.message)}). Check the address and that the server is running.`);
    case "authentication":
      return said("authentication", `${where} refused the key. Check the embeddings API key.`);
    case "model-not-found":
      return said("model-not-found", `${where} has no model "${settings.model}". Check the embeddings model's name.`);
    case "endpoint-not-found":
      return said("endpoint-not-found", `${where} has no /embeddings endpoint. Check the base URL: it usually ends in /v1.`);
    case "timeout":
      return said("timeout", `${where} did not answer in time. Check that it is running and not busy.`);
    default:
      return { message: failure.message || errorMessage(error), said: { code: "other" } };
  }
}

/** The reason in brackets of an "unreachable" message ("connection refused"), or the message. */
function reasonOf(message: string): string {
  return /\(([^()]+)\)\./.exec(message)?.[1] ?? message;
}

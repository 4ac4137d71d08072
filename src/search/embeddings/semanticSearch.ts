import type { ModelError } from "../../net/modelErrors";
import type { FetchLike } from "../../ports/FetchLike";
import type { SecretStore } from "../../ports/SecretStore";
import { abortReason } from "../../ports/timers";
import type { CopilotSettings } from "../../settings/settingsSchema";
import type { DataStore, VaultPort } from "../../vault/VaultPort";
import type { VectorSide } from "../vectorSide";
import { createEmbeddingClient, type EmbeddingClient } from "./embeddingClient";
import { Embedder, type EmbedderProblem, type EmbedderSettings, type EmbedderStatus } from "./Embedder";
import { asEmbeddingError } from "./embedWithRetry";

export interface SemanticSearchOptions {
  vault: VaultPort;
  /** The plugin's private storage, next to the note index. */
  store: DataStore;
  fetch: FetchLike;
  secrets: SecretStore;
  getSettings: () => CopilotSettings;
  onProblem?: (problem: EmbedderProblem) => void;
  /** A query's embedding failed, so that query is answered by words alone. */
  onQueryProblem?: (error: ModelError) => void;
  /** How long an embeddings request may stay silent (MODEL_IDLE_TIMEOUT_MS by default, as model requests). */
  idleTimeoutMs?: number;
  onProgress?: (status: EmbedderStatus) => void;
  yieldNow?: () => Promise<void>;
}

export interface SemanticSearch {
  embedder: Embedder;
  /** What NoteIndex asks when embeddings are on and hold vectors of the current model; null otherwise. */
  vectors(): VectorSide | null;
}

/** The embedder's settings from the plugin's: the embeddings section, with note search's exclusions. */
export function embedderSettings(settings: CopilotSettings): EmbedderSettings {
  return {
    enabled: settings.embeddings.enabled,
    model: settings.embeddings.model,
    includeFolders: settings.embeddings.includeFolders,
    excludedFolders: settings.search.excludedFolders,
    excludedPatterns: settings.search.excludedPatterns,
  };
}

/**
 * Embeddings for search, as the plugin and the CLI use them: an Embedder over the vault (nothing
 * is read or sent unless switched on), and the vector side NoteIndex fuses with its words. A query
 * whose embedding fails (server down, rate limit, silent past the idle limit) is answered by words
 * alone and said through `onQueryProblem`; a failure is never a failed search, a stop (the
 * signal) ends it.
 */
export function createSemanticSearch(options: SemanticSearchOptions): SemanticSearch {
  const client = (): EmbeddingClient => {
    const { embeddings } = options.getSettings();
    const key = options.secrets.get(embeddings.apiKeySecretId)?.trim();
    return createEmbeddingClient({
      fetch: options.fetch,
      baseUrl: embeddings.baseUrl,
      model: embeddings.model,
      ...(key ? { apiKey: key } : {}),
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    });
  };
  const embedder = new Embedder({
    vault: options.vault,
    store: options.store,
    createClient: () => client(),
    getSettings: () => embedderSettings(options.getSettings()),
    ...(options.onProblem ? { onProblem: options.onProblem } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.yieldNow ? { yieldNow: options.yieldNow } : {}),
  });
  const side: VectorSide = {
    async search(query, limit, accept, signal) {
      const queryClient = client();
      try {
        const [vector] = await queryClient.embed([query], signal);
        return vector ? embedder.vectors.search(vector, limit, accept) : null;
      } catch (error) {
        // A stopped search ends here; any other failure leaves the query to the words.
        if (signal?.aborted) throw abortReason(signal);
        options.onQueryProblem?.(asEmbeddingError(error, queryClient, signal));
        return null;
      }
    },
    similarToNote: (path, limit, accept) => embedder.vectors.similarToNote(path, limit, accept),
  };
  return {
    embedder,
    vectors: () => {
      const { embeddings } = options.getSettings();
      const stored = embedder.vectors;
      return embeddings.enabled && stored.noteCount > 0 && stored.model === embeddings.model ? side : null;
    },
  };
}

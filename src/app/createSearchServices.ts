import { RELATED_NOTES_SHOWN } from "../constants";
import { searchOutsideChats } from "../history/searchOutsideChats";
import { systemClock, type Clock } from "../ports/Clock";
import type { FetchLike } from "../ports/FetchLike";
import type { NoteSearcher } from "../ports/NoteSearcher";
import type { SecretStore } from "../ports/SecretStore";
import type { EmbedderStatus } from "../search/embeddings/Embedder";
import { createSemanticSearch, type SemanticSearch, type SemanticSearchOptions } from "../search/embeddings/semanticSearch";
import { NoteIndex, type NoteIndexOptions } from "../search/NoteIndex";
import type { SimilarNote } from "../search/similarNotes";
import type { CopilotSettings } from "../settings/settingsSchema";
import type { DataStore, VaultPort } from "../vault/VaultPort";
import { DocumentReader } from "../documents/DocumentReader";
import type { DocumentLimits } from "../documents/documentText";
import type { PdfTextPort } from "../documents/PdfTextPort";
import { searchableVault } from "../documents/searchableVault";
import { ProjectLibrary, type OpenProject } from "../projects/ProjectLibrary";
import type { ProjectNoteError } from "../projects/projectNote";
import { scopedNoteSearcher, scopedRelatedNotes } from "../projects/scopedSearch";

/** The settings as the services read them: the current value, its changes, and a way to change it. */
export interface SettingsSource {
  get(): CopilotSettings;
  subscribe(listener: (settings: CopilotSettings) => void): () => void;
  update(change: (settings: CopilotSettings) => CopilotSettings): Promise<void>;
}

/** What the note index and the embeddings are built from. */
export interface SearchPorts {
  vault: VaultPort;
  /** The plugin's private storage (the index, the vectors, the edit history). */
  dataStore: DataStore;
  secrets: SecretStore;
  settings: SettingsSource;
  /** Requests to model, embeddings and MCP servers. */
  fetch: FetchLike;
  clock?: Clock;
  /** Problems that stopped nothing (a note the index could not read, an embeddings failure). */
  onProblem?: (message: string) => void;
  onIndexProgress?: NoteIndexOptions["onProgress"];
  onEmbeddingProgress?: SemanticSearchOptions["onProgress"];
  onEmbeddingProblem?: SemanticSearchOptions["onProblem"];
  onEmbeddingQueryProblem?: SemanticSearchOptions["onQueryProblem"];
  /** How long threads are handed back between slices of long work (a timer by default). */
  yieldNow?: () => Promise<void>;
  /** How long a model or embeddings request may stay silent before it fails. */
  idleTimeoutMs?: number;
  /** PDFs' text layer (Obsidian's pdf.js in the plugin, pdfjs-dist in the CLI), disposed with the services; absent: PDFs say they cannot be read. */
  pdfText?: PdfTextPort;
  /** The caps on one PDF's pages and characters (DEFAULT_DOCUMENT_LIMITS unless told). */
  documentLimits?: DocumentLimits;
  /** Problems of project notes (a broken one is reported by path, the others load). */
  onProjectProblems?: (problems: ProjectNoteError[]) => void;
}

/** A project opened for searching: its scope and vault, and search and related notes that see only its notes. */
export interface ProjectSearch extends OpenProject {
  search: NoteSearcher;
  related: { similar(path: string, signal: AbortSignal): Promise<SimilarNote[]> };
}

/** The note index and what is built on it; the part of the graph the search commands need alone. */
export interface SearchServices {
  clock: Clock;
  semantic: SemanticSearch;
  noteIndex: NoteIndex;
  /** PDFs and canvases as text, their extraction kept beside the index: the same reader for search, readNote and attachments. */
  documents: DocumentReader;
  /** What the agent's search and vault QA read: every note but the saved chats. */
  noteSearch: NoteSearcher;
  /** The notes related to a note (the chats left out). */
  related: { similar(path: string, signal: AbortSignal): Promise<SimilarNote[]> };
  /** "Index health" in the settings: the index's figures (and the embeddings' when on), Rebuild, and a change event. */
  indexHealth: {
    health(): ReturnType<NoteIndex["health"]> & { embeddings: EmbedderStatus | null };
    rebuild(): Promise<void>;
    onChange(listener: () => void): () => void;
  };
  /** The user's projects (the notes of the projects folder). */
  projects: ProjectLibrary;
  /** The project of that name, opened for searching; throws ProjectNotFoundError (missing or broken) with one line to show. */
  openProjectSearch(name: string): Promise<ProjectSearch>;
  /** Stops embedding and closes the index (saving what changed); the first failure is thrown. */
  dispose(): Promise<void>;
}

/**
 * The note index behind localSearch, vault QA, related notes and Chat history's search, with the
 * embeddings fused in when the user switched them on. Nothing runs until the index is started.
 */
export function createSearchServices(ports: SearchPorts): SearchServices {
  const { dataStore, secrets, settings } = ports;
  const documents = new DocumentReader({
    vault: ports.vault,
    store: dataStore,
    pdf: ports.pdfText ?? null,
    ...(ports.documentLimits ? { limits: ports.documentLimits } : {}),
    ...(ports.yieldNow ? { yieldNow: ports.yieldNow } : {}),
    ...(ports.onProblem ? { onProblem: ports.onProblem } : {}),
  });
  // Search reads PDFs and canvases as notes; everything else keeps the plain vault.
  const vault = searchableVault(ports.vault, documents);
  // The time zone is read at each call, so a change in the settings applies at once.
  const clock: Clock = ports.clock ?? { now: () => Date.now(), timeZone: () => systemClock(settings.get().timeZone).timeZone() };
  const semantic = createSemanticSearch({
    vault,
    store: dataStore,
    fetch: ports.fetch,
    secrets,
    getSettings: () => settings.get(),
    onProblem: ports.onEmbeddingProblem ?? ((problem) => ports.onProblem?.(`embeddings: ${problem.error.message}`)),
    ...(ports.onEmbeddingQueryProblem ? { onQueryProblem: ports.onEmbeddingQueryProblem } : {}),
    ...(ports.onEmbeddingProgress ? { onProgress: ports.onEmbeddingProgress } : {}),
    ...(ports.yieldNow ? { yieldNow: ports.yieldNow } : {}),
    ...(ports.idleTimeoutMs !== undefined ? { idleTimeoutMs: ports.idleTimeoutMs } : {}),
  });
  const noteIndex = new NoteIndex({
    vectors: () => semantic.vectors(),
    vault,
    store: dataStore,
    getSettings: () => settings.get().search,
    timeZone: () => clock.timeZone(),
    ...(ports.onProblem ? { onProblem: ports.onProblem } : {}),
    ...(ports.onIndexProgress ? { onProgress: ports.onIndexProgress } : {}),
    ...(ports.yieldNow ? { yieldNow: ports.yieldNow } : {}),
  });
  const noteSearch = searchOutsideChats(noteIndex, () => settings.get().history.folder, vault.configDir);
  const similar = (path: string, signal: AbortSignal, acceptPath?: (path: string) => boolean) =>
    noteIndex.similar(path, { limit: RELATED_NOTES_SHOWN, signal, outsideFolder: settings.get().history.folder, ...(acceptPath ? { acceptPath } : {}) });
  // Projects read their notes and scope from the plain vault (PDFs and canvases count as files in a project's folders).
  const projects = new ProjectLibrary(ports.vault, () => settings.get().projects.folder, () => [settings.get().history.folder], ports.onProjectProblems);
  // One search per opened project: the library hands back the same opened project until its note changes.
  const projectSearches = new WeakMap<OpenProject, ProjectSearch>();
  return {
    clock,
    semantic,
    noteIndex,
    documents,
    noteSearch,
    related: { similar: (path, signal) => similar(path, signal) },
    projects,
    async openProjectSearch(name) {
      const open = await projects.open(name);
      const known = projectSearches.get(open);
      if (known) return known;
      const made: ProjectSearch = { ...open, search: scopedNoteSearcher(noteSearch, open.scope, open.vault), related: scopedRelatedNotes(similar, open.scope) };
      projectSearches.set(open, made);
      return made;
    },
    indexHealth: {
      health: () => ({ ...noteIndex.health(), embeddings: settings.get().embeddings.enabled ? semantic.embedder.status() : null }),
      rebuild: async () => {
        await noteIndex.rebuild();
        if (settings.get().embeddings.enabled) await semantic.embedder.rebuild();
      },
      onChange: (listener) => {
        const stops = [noteIndex.onHealthChange(listener), semantic.embedder.onStatusChange(listener)];
        return () => stops.forEach((stop) => stop());
      },
    },
    async dispose() {
      projects.dispose();
      // Both are closed whatever the other does; the first failure (an index that could not be saved) is the caller's to report.
      const closed = await Promise.allSettled([semantic.embedder.dispose(), noteIndex.dispose().finally(async () => {
          await documents.dispose();
          await ports.pdfText?.dispose?.();
        })]);
      const failure = closed.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
      if (failure) throw failure.reason;
    },
  };
}

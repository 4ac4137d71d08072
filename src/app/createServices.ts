import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ChatRunner } from "../chat/ChatController";
import { createChatRunner, type ChatRunnerParts } from "../chat/createChatRunner";
import { RELATED_NOTES_SHOWN } from "../constants";
import { errorMessage } from "../errorMessage";
import { PromptPayloadRecorder } from "../context/promptPayloadRecorder";
import { ChatHistory } from "../history/ChatHistory";
import { searchOutsideChats } from "../history/searchOutsideChats";
import { createChatModel } from "../LLMProviders/chatModelFactory";
import { listServerModels } from "../LLMProviders/listModels";
import { configuredModelNames, knownToTakeTools, modelSettingsFor, withToolSupport } from "../LLMProviders/modelChoice";
import type { RetryPolicy } from "../LLMProviders/retryPolicy";
import type { McpServerConfig } from "../mcp/mcpConfig";
import { McpHub } from "../mcp/McpHub";
import type { RunApprovals } from "../ports/approval";
import { systemClock, type Clock } from "../ports/Clock";
import type { FetchLike } from "../ports/FetchLike";
import type { HttpPort } from "../ports/HttpPort";
import type { NoteSearcher } from "../ports/NoteSearcher";
import type { SecretStore } from "../ports/SecretStore";
import type { PromptNoteError } from "../prompts/customPrompt";
import { PromptLibrary } from "../prompts/PromptLibrary";
import type { EmbedderStatus } from "../search/embeddings/Embedder";
import { createSemanticSearch, type SemanticSearch, type SemanticSearchOptions } from "../search/embeddings/semanticSearch";
import { NoteIndex, type NoteIndexOptions } from "../search/NoteIndex";
import type { SimilarNote } from "../search/similarNotes";
import { storedSecretValues } from "../settings/secrets";
import type { ChatMode, CopilotSettings } from "../settings/settingsSchema";
import { BUILTIN_TOOLS, initializeBuiltinTools } from "../tools/builtinTools";
import { EditHistory } from "../tools/edit/EditHistory";
import type { PomodoroTimer } from "../tools/pomodoro/PomodoroTimer";
import type { ToolRegistry } from "../tools/ToolRegistry";
import type { DataStore, VaultPort } from "../vault/VaultPort";

/** The settings as the services read them: the current value, its changes, and a way to change it. */
export interface SettingsSource {
  get(): CopilotSettings;
  subscribe(listener: (settings: CopilotSettings) => void): () => void;
  update(change: (settings: CopilotSettings) => CopilotSettings): Promise<void>;
}

/**
 * What the services are built from: the platform's side of everything. The plugin hands in
 * Obsidian's vault, SecretStorage, the CORS-free fetch and the approval dialogs; the CLI a folder,
 * the flags' settings and keys, Node's fetch and the approvals its flags chose; the tests the same
 * over a temporary folder and a scripted server.
 */
export interface ServicePorts {
  vault: VaultPort;
  /** The plugin's private storage (the index, the vectors, the edit history). */
  dataStore: DataStore;
  secrets: SecretStore;
  settings: SettingsSource;
  /** Requests to model, embeddings and MCP servers. */
  fetch: FetchLike;
  /** Plain requests of the tools (web search, transcripts). */
  http: HttpPort;
  /** Asked by a tool run that no chat started (a chat's run asks in the chat). */
  approvals: RunApprovals;
  /** The app's registry (the plugin's singleton; a fresh one in the CLI and tests). */
  registry: ToolRegistry;
  /** Makes the transport of an MCP server. */
  createMcpTransport: (config: McpServerConfig) => Promise<Transport>;
  clock?: Clock;
  /** The pomodoro timer, made with the services' clock (Obsidian's shows itself in the status bar). */
  pomodoroTimer?: (clock: Clock) => PomodoroTimer;
  /** Problems that stopped nothing (a note the index could not read, an embeddings failure). */
  onProblem?: (message: string) => void;
  onIndexProgress?: NoteIndexOptions["onProgress"];
  onEmbeddingProgress?: SemanticSearchOptions["onProgress"];
  onEmbeddingProblem?: SemanticSearchOptions["onProblem"];
  onEmbeddingQueryProblem?: SemanticSearchOptions["onQueryProblem"];
  /** Problems of prompt notes (a broken one is reported, the others load). */
  onPromptProblems?: (problems: PromptNoteError[]) => void;
  /** How long threads are handed back between slices of long work (a timer by default). */
  yieldNow?: () => Promise<void>;
  retryPolicy?: RetryPolicy;
  /** How long a model or embeddings request may stay silent before it fails. */
  idleTimeoutMs?: number;
  /** Model names the server lists, for the picker (the server's own list by default). */
  listServerModels?: () => Promise<string[]>;
}

/** Everything the chat, the commands and the settings reach, built once. */
export interface Services {
  settings: SettingsSource;
  vault: VaultPort;
  secrets: SecretStore;
  clock: Clock;
  registry: ToolRegistry;
  editHistory: EditHistory;
  semantic: SemanticSearch;
  noteIndex: NoteIndex;
  /** What the agent's search and vault QA read: every note but the saved chats. */
  noteSearch: NoteSearcher;
  mcpHub: McpHub;
  /** The last request, layer by layer, keys redacted ("Show last request"). */
  recorder: PromptPayloadRecorder;
  history: ChatHistory;
  prompts: PromptLibrary;
  /** The runner of a chat mode, answering with `model`. */
  createRunner(mode: ChatMode, model: string): ChatRunner;
  /** The notes related to a note (the chats left out). */
  related: { similar(path: string, signal: AbortSignal): Promise<SimilarNote[]> };
  /** The model names to offer: the configured ones (the default first), then what the default's server lists. */
  listModels(): Promise<string[]>;
  /** The values of every secret the settings name (kept out of saved chats, logs and the request view). */
  secretValues(): string[];
  /** "Index health" in the settings: the index's figures (and the embeddings' when on), Rebuild, and a change event. */
  indexHealth: {
    health(): ReturnType<NoteIndex["health"]> & { embeddings: EmbedderStatus | null };
    rebuild(): Promise<void>;
    onChange(listener: () => void): () => void;
  };
  /** Starts what runs in the background: the note index, embedding and MCP servers, each following the settings. */
  start(): void;
  /** Stops all of it and lets go of the registry's built-in tools; what is stored stays stored. */
  dispose(): Promise<void>;
}

/**
 * The service graph, one place for the plugin, the CLI and the tests: the note index (with
 * embeddings when switched on), the registry's built-in tools, the runners, the chats kept as
 * notes, the user's prompts, the MCP servers. Nothing slow runs here; `start` begins the
 * background work.
 */
export function createServices(ports: ServicePorts): Services {
  const { vault, dataStore, secrets, settings, registry } = ports;
  // The time zone is read at each call, so a change in the settings applies at once.
  const clock: Clock = ports.clock ?? { now: () => Date.now(), timeZone: () => systemClock(settings.get().timeZone).timeZone() };
  const secretValues = () => storedSecretValues(settings.get(), secrets);
  const editHistory = new EditHistory(vault, dataStore);
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
  initializeBuiltinTools(registry, {
    vault,
    clock,
    http: ports.http,
    secrets,
    approval: ports.approvals,
    getSettings: () => settings.get(),
    editHistory,
    ...(ports.pomodoroTimer ? { pomodoroTimer: ports.pomodoroTimer(clock) } : {}),
    search: noteSearch,
  });
  const mcpHub = new McpHub({
    registry,
    createTransport: ports.createMcpTransport,
    approval: ports.approvals,
    isAutoApproved: (toolId) => settings.get().autoApproveToolIds.includes(toolId),
  });
  const recorder = new PromptPayloadRecorder(secretValues);
  const runnerParts: ChatRunnerParts = {
    getSettings: () => settings.get(),
    createModel: (model) => createChatModel(modelSettingsFor(settings.get(), model), { fetch: ports.fetch, secrets }),
    registry,
    getSearcher: () => noteSearch,
    recorder,
    ...(ports.retryPolicy ? { retryPolicy: ports.retryPolicy } : {}),
    ...(ports.idleTimeoutMs !== undefined ? { modelIdleTimeoutMs: ports.idleTimeoutMs } : {}),
    // A model seen calling a tool is known to take them: new chats with it may start in Agent.
    onToolCallSeen: (model) => {
      if (knownToTakeTools(settings.get(), model) !== true) void settings.update((current) => withToolSupport(current, model, true));
    },
  };
  const history = new ChatHistory({ vault, folder: () => settings.get().history.folder, searcher: () => noteIndex, secrets: secretValues });
  const prompts = new PromptLibrary(vault, () => settings.get().prompts.folder, ports.onPromptProblems);
  const serverModels = ports.listServerModels ?? (() => listServerModels(settings.get().provider, { fetch: ports.fetch, secrets }));
  const following: Array<() => void> = [];

  return {
    settings,
    vault,
    secrets,
    clock,
    registry,
    editHistory,
    semantic,
    noteIndex,
    noteSearch,
    mcpHub,
    recorder,
    history,
    prompts,
    createRunner: (mode, model) => createChatRunner(runnerParts, mode, model),
    related: {
      similar: (path, signal) => noteIndex.similar(path, { limit: RELATED_NOTES_SHOWN, signal, outsideFolder: settings.get().history.folder }),
    },
    listModels: async () => [...configuredModelNames(settings.get()), ...(await serverModels())],
    secretValues,
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
    start() {
      noteIndex.start().catch((error: unknown) => ports.onProblem?.(`the search index did not start: ${errorMessage(error)}`));
      const onChange = (listener: () => void) => settings.subscribe(listener);
      following.push(
        semantic.embedder.follow(onChange),
        mcpHub.follow(() => settings.get().mcpServers, onChange),
      );
    },
    async dispose() {
      for (const stop of following.splice(0)) stop();
      prompts.dispose();
      await Promise.allSettled([semantic.embedder.dispose(), noteIndex.dispose(), mcpHub.closeAll()]);
      registry.unregister(BUILTIN_TOOLS.map((entry) => entry.metadata.id));
    },
  };
}

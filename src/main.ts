import { Notice, Platform, Plugin, type WorkspaceLeaf } from "obsidian";
import { createChatRunner } from "./chat/createChatRunner";
import { CopilotView } from "./components/CopilotView";
import { PromptPayloadModal } from "./components/PromptPayloadModal";
import { PromptPayloadRecorder } from "./context/promptPayloadRecorder";
import { createChatModel } from "./LLMProviders/chatModelFactory";
import { listServerModels } from "./LLMProviders/listModels";
import { configuredModelNames, knownToTakeTools, modelSettingsFor, withToolSupport } from "./LLMProviders/modelChoice";
import { modalEditApproval } from "./components/EditApprovalModal";
import { registerEditCommands } from "./components/editCommands";
import { createEmbeddingProgressStatusBar, createIndexProgressStatusBar } from "./components/indexProgressStatusBar";
import { registerPomodoro } from "./components/pomodoroStatusBar";
import { modalToolCallApproval } from "./components/ToolCallApprovalModal";
import { createObsidianFetch } from "./net/obsidianFetch";
import { plainHttp } from "./net/plainHttp";
import { McpHub } from "./mcp/McpHub";
import { pluginTransportFactory } from "./mcp/obsidianMcp";
import { CHAT_VIEW_TYPE, RELATED_NOTES_SHOWN, RELATED_VIEW_TYPE } from "./constants";
import { noteChip } from "./chat/chipArtifacts";
import type { RelatedNotesSource } from "./components/RelatedNotesList";
import { RelatedNotesView } from "./components/RelatedNotesView";
import { systemClock, type Clock } from "./ports/Clock";
import { ChatHistory } from "./history/ChatHistory";
import { searchOutsideChats } from "./history/searchOutsideChats";
import { registerPromptCommands } from "./components/promptCommands";
import { PromptLibrary } from "./prompts/PromptLibrary";
import { NoteIndex } from "./search/NoteIndex";
import { createSemanticSearch } from "./search/embeddings/semanticSearch";
import type { IndexHealthSource } from "./settings/semanticSearchSection";
import { ObsidianSecretStore } from "./settings/obsidianSecretStore";
import { storedSecretValues } from "./settings/secrets";
import { VaultCopilotSettingTab } from "./settings/SettingsTab";
import { pluginDataFolder, pluginSettingsFile, SettingsStore } from "./settings/settingsStore";
import { BUILTIN_TOOLS, initializeBuiltinTools } from "./tools/builtinTools";
import { EditHistory } from "./tools/edit/EditHistory";
import { ToolRegistry } from "./tools/ToolRegistry";
import type { RunApprovals } from "./ports/approval";
import { ObsidianDataStore, ObsidianVault } from "./vault/ObsidianVault";
import { errorMessage } from "./errorMessage";

/**
 * The plugin: lifecycle and wiring only. `onload` loads the settings and connects the parts;
 * nothing slow runs here (work that reads the vault waits for `onLayoutReady` or first use).
 * Everything registered goes through `register*`/`add*`, so Obsidian undoes it on unload.
 */
export default class VaultCopilotPlugin extends Plugin {
  private settingsStore: SettingsStore | undefined;

  override async onload(): Promise<void> {
    const secrets = new ObsidianSecretStore(this.app.secretStorage);
    const store = await SettingsStore.load({
      file: pluginSettingsFile(this),
      secrets,
      // Stays until dismissed: it reports settings that were reset.
      notify: (message) => new Notice(message, 0),
    });
    this.settingsStore = store;

    const vault = new ObsidianVault(this.app);
    const dataStore = new ObsidianDataStore(this.app.vault.adapter, pluginDataFolder(this));
    // The time zone is read at each call, so a change in the settings applies at once.
    const clock: Clock = { now: () => Date.now(), timeZone: () => systemClock(store.get().timeZone).timeZone() };
    const editHistory = new EditHistory(vault, dataStore);
    // Requests to model, embeddings and MCP servers go out without CORS (local servers rarely allow it).
    const corsFreeFetch = createObsidianFetch();
    // Embeddings, when the user switched them on: notes embedded by section in the background.
    const semantic = createSemanticSearch({
      vault,
      store: dataStore,
      fetch: corsFreeFetch,
      secrets,
      getSettings: () => store.get(),
      onProblem: ({ error }) => console.warn(`Vault Copilot: embeddings: ${error.message}`),
      onProgress: createEmbeddingProgressStatusBar(this),
    });
    this.register(() => void semantic.embedder.dispose());
    // The note index behind localSearch: loaded and brought up to date once the layout is ready.
    const noteIndex = new NoteIndex({
      vectors: () => semantic.vectors(),
      vault,
      store: dataStore,
      getSettings: () => store.get().search,
      timeZone: () => clock.timeZone(),
      onProblem: (message) => console.warn(`Vault Copilot: ${message}`),
      onProgress: createIndexProgressStatusBar(this),
    });
    this.register(() => void noteIndex.dispose());
    // What the agent's search and vault QA read: every note but the saved chats.
    const noteSearch = searchOutsideChats(noteIndex, () => store.get().history.folder, vault.configDir);

    // A chat's run carries the chat, and its tools ask there; these dialogs answer for a tool
    // run that no chat started.
    const approvals: RunApprovals = {
      requestApproval: (proposal, signal) => modalEditApproval(this.app).requestApproval(proposal, signal),
      requestToolCallApproval: (proposal, signal) => modalToolCallApproval(this.app).requestToolCallApproval(proposal, signal),
    };
    const registry = ToolRegistry.getInstance();
    initializeBuiltinTools(registry, {
      vault,
      clock,
      http: plainHttp(corsFreeFetch),
      secrets,
      approval: approvals,
      getSettings: () => store.get(),
      editHistory,
      pomodoroTimer: registerPomodoro(this, clock),
      search: noteSearch,
    });
    this.register(() => registry.unregister(BUILTIN_TOOLS.map((entry) => entry.metadata.id)));

    const mcpHub = new McpHub({
      registry,
      createTransport: pluginTransportFactory({ isDesktop: Platform.isDesktop, secrets, fetch: corsFreeFetch, cwd: vaultFolderPath(this) }),
      approval: approvals,
      isAutoApproved: (toolId) => store.get().autoApproveToolIds.includes(toolId),
    });
    this.register(() => void mcpHub.closeAll());

    // Every key the plugin holds is kept out of the request debug view.
    const recorder = new PromptPayloadRecorder(() => storedSecretValues(store.get(), secrets));
    // Related notes: "more like this" over the note index, chats left out.
    const relatedNotes: RelatedNotesSource = {
      similar: (path, signal) => noteIndex.similar(path, { limit: RELATED_NOTES_SHOWN, signal, outsideFolder: store.get().history.folder }),
    };
    const runnerParts = {
      getSettings: () => store.get(),
      createModel: (model: string) => createChatModel(modelSettingsFor(store.get(), model), { fetch: corsFreeFetch, secrets }),
      registry,
      getSearcher: () => noteSearch,
      recorder,
      // A model seen calling a tool is known to take them: new chats with it may start in Agent.
      onToolCallSeen: (model: string) => {
        if (knownToTakeTools(store.get(), model) !== true) void store.update((settings) => withToolSupport(settings, model, true));
      },
    };
    // Chats kept as notes, searched by their text through the note index.
    const history = new ChatHistory({ vault, folder: () => store.get().history.folder, searcher: () => noteIndex, secrets: () => storedSecretValues(store.get(), secrets) });
    // The user's own prompts (notes in the prompts folder), read again as they change.
    const prompts = new PromptLibrary(vault, () => store.get().prompts.folder, (problems) => {
      for (const problem of problems) new Notice(`Vault Copilot: ${problem.message}`);
    });
    this.register(() => prompts.dispose());
    this.registerView(
      CHAT_VIEW_TYPE,
      (leaf) =>
        new CopilotView(leaf, {
          settings: store,
          createRunner: (mode, model) => createChatRunner(runnerParts, mode, model),
          vault,
          editHistory,
          registry,
          listModels: async () => [...configuredModelNames(store.get()), ...(await listServerModels(store.get().provider, { fetch: corsFreeFetch, secrets }))],
          history,
          secretValues: () => storedSecretValues(store.get(), secrets),
          prompts,
          related: relatedNotes,
        }),
    );
    this.registerHoverLinkSource(CHAT_VIEW_TYPE, { display: "Copilot chat", defaultMod: true });
    this.registerView(
      RELATED_VIEW_TYPE,
      (leaf) =>
        new RelatedNotesView(leaf, {
          source: relatedNotes,
          addToChat: (path) => void this.openChatView().then((view) => view?.getController()?.addChip(noteChip(path))),
        }),
    );
    this.addCommand({ id: "open-related-notes", name: "Open related notes", callback: () => void this.revealView(RELATED_VIEW_TYPE) });
    this.addRibbonIcon("bot-message-square", "Open Copilot chat", () => void this.openChatView());
    this.addCommand({ id: "open-chat", name: "Open chat", callback: () => void this.openChatView() });
    this.addCommand({
      id: "add-selection-to-chat",
      name: "Add selection to chat",
      editorCheckCallback: (checking, editor, context) => {
        const file = context.file;
        const text = editor.getSelection();
        if (!file || !text) return false;
        if (checking) return true;
        const from = editor.getCursor("from").line + 1;
        const to = editor.getCursor("to").line + 1;
        void this.openChatView().then((view) => view?.addSelection(file.path, text, from, to));
        return true;
      },
    });
    this.addCommand({ id: "show-last-request", name: "Show last request", callback: () => new PromptPayloadModal(this.app, recorder).open() });
    registerEditCommands(this, editHistory);
    registerPromptCommands(this, { prompts, vault, promptsFolder: () => store.get().prompts.folder, openChatView: () => this.openChatView() });
    const indexHealth: IndexHealthSource = {
      health: () => ({ ...noteIndex.health(), embeddings: store.get().embeddings.enabled ? semantic.embedder.status() : null }),
      rebuild: async () => {
        await noteIndex.rebuild();
        if (store.get().embeddings.enabled) await semantic.embedder.rebuild();
      },
      onChange: (listener) => {
        const timer = window.setInterval(listener, 2000);
        return () => window.clearInterval(timer);
      },
    };
    this.addSettingTab(new VaultCopilotSettingTab(this.app, this, store, registry, mcpHub, { fetch: corsFreeFetch, secrets }, indexHealth));

    // The search index starts after layout ready (never in onload: a first build reads every note).
    this.addCommand({
      id: "rebuild-search-index",
      name: "Rebuild search index",
      callback: () => {
        noteIndex.rebuild().then(
          (report) => new Notice(`Search index rebuilt: ${report.indexed} notes.`),
          (error: unknown) => new Notice(`The search index could not be rebuilt: ${errorMessage(error)}`),
        );
      },
    });
    this.app.workspace.onLayoutReady(() => {
      noteIndex.start().catch((error: unknown) => console.warn("Vault Copilot: the search index did not start", error));
      // Embedding follows the settings: switched on (or its server, model or folders changed), it runs.
      let embeddings = JSON.stringify(store.get().embeddings);
      if (store.get().embeddings.enabled) void semantic.embedder.start();
      this.register(
        store.subscribe((settings) => {
          const next = JSON.stringify(settings.embeddings);
          if (next === embeddings) return;
          embeddings = next;
          if (settings.embeddings.enabled) void semantic.embedder.start();
        }),
      );
    });

    // MCP servers start once the workspace is ready (a server may take seconds to spawn), and
    // follow the settings: servers added, changed, disabled or removed connect or leave.
    this.app.workspace.onLayoutReady(() => {
      let servers = JSON.stringify(store.get().mcpServers);
      void mcpHub.sync(store.get().mcpServers);
      this.register(
        store.subscribe((settings) => {
          const next = JSON.stringify(settings.mcpServers);
          if (next === servers) return;
          servers = next;
          void mcpHub.sync(settings.mcpServers);
        }),
      );
    });
  }

  /** Obsidian calls this when data.json changed on disk (e.g. by sync). */
  override async onExternalSettingsChange(): Promise<void> {
    await this.settingsStore?.reload();
  }

  /** Shows the chat view, opening it in the right sidebar when it is not open yet. */
  private async openChatView(): Promise<CopilotView | null> {
    const leaf = await this.revealView(CHAT_VIEW_TYPE);
    return leaf?.view instanceof CopilotView ? leaf.view : null;
  }

  /** Shows the view of `type`, opening it in the right sidebar when it is not open yet. */
  private async revealView(type: string): Promise<WorkspaceLeaf | null> {
    const { workspace } = this.app;
    let leaf = workspace.getLeavesOfType(type)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      await leaf?.setViewState({ type, active: true });
    }
    if (leaf) await workspace.revealLeaf(leaf);
    return leaf;
  }
}

/** The vault's folder on disk, where desktop stdio MCP servers start; undefined elsewhere. */
function vaultFolderPath(plugin: Plugin): string | undefined {
  const adapter = plugin.app.vault.adapter as { getBasePath?: () => string };
  return typeof adapter.getBasePath === "function" ? adapter.getBasePath() : undefined;
}

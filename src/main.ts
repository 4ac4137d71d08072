import { Notice, Platform, Plugin, type WorkspaceLeaf } from "obsidian";
import { createServices } from "./app/createServices";
import { obsidianPdfText } from "./documents/obsidianPdfText";
import { noteChip } from "./chat/chipArtifacts";
import { registerChatCommands } from "./components/chatCommands";
import { CopilotView } from "./components/CopilotView";
import { modalEditApproval, modalToolCallApproval } from "./components/ApprovalModal";
import { registerEditCommands } from "./components/editCommands";
import { registerInlineCompletion } from "./components/editor/registerInlineCompletion";
import { registerQuickQuestion } from "./components/editor/quickQuestionCommand";
import { CompletionUsage } from "./editor/completionUsage";
import { createEmbeddingProgressStatusBar, createIndexProgressStatusBar } from "./components/indexProgressStatusBar";
import { registerPomodoro } from "./components/pomodoroStatusBar";
import { registerProjectCommands } from "./components/projectCommands";
import { registerPromptCommands } from "./components/promptCommands";
import { PromptPayloadModal } from "./components/PromptPayloadModal";
import { obsidianHtmlReader } from "./components/obsidianHtmlReader";
import { canvasImageScaler } from "./components/canvasImageScaler";
import { RelatedNotesView } from "./components/RelatedNotesView";
import { indexFailureText, noteLoadText } from "./components/coreNotices";
import { CHAT_VIEW_TYPE, RELATED_VIEW_TYPE } from "./constants";
import { createObsidianFetch } from "./net/obsidianFetch";
import { afterNextPaint } from "./ports/afterNextPaint";
import { pluginTransportFactory } from "./mcp/obsidianMcp";
import { ObsidianSecretStore } from "./components/settings/obsidianSecretStore";
import { VaultCopilotSettingTab } from "./components/settings/SettingsTab";
import { pluginDataFolder, pluginSettingsFile, SettingsStore } from "./components/settings/settingsStore";
import { ToolRegistry } from "./tools/ToolRegistry";
import { ObsidianDataStore, ObsidianVault } from "./vault/ObsidianVault";
import { t } from "./i18n/t";

/**
 * The plugin: lifecycle and wiring only. `onload` loads the settings, builds the services from
 * Obsidian's side of things (src/app/createServices, the graph the CLI and the tests build too)
 * and registers the views, commands and the settings tab; nothing slow runs here (the index,
 * embedding and MCP servers start once the layout is ready). Everything registered goes through
 * `register*`/`add*`, so Obsidian undoes it on unload.
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
    // Requests to model, embeddings and MCP servers go out without CORS (local servers rarely allow it).
    const corsFreeFetch = createObsidianFetch();
    const dataStore = new ObsidianDataStore(this.app.vault.adapter, pluginDataFolder(this));
    const services = createServices({
      vault: new ObsidianVault(this.app),
      dataStore,
      secrets,
      settings: store,
      fetch: corsFreeFetch,
      // PDFs through the pdf.js Obsidian ships: nothing added to main.js, and it runs on phones.
      pdfText: obsidianPdfText(),
      // A chat's run carries the chat, and its tools ask there; these dialogs answer for a tool
      // run that no chat started.
      approvals: {
        requestApproval: (proposal, signal) => modalEditApproval(this.app).requestApproval(proposal, signal),
        requestToolCallApproval: (proposal, signal) => modalToolCallApproval(this.app).requestToolCallApproval(proposal, signal),
      },
      registry: ToolRegistry.getInstance(),
      createMcpTransport: pluginTransportFactory({ isDesktop: Platform.isDesktop, secrets, fetch: corsFreeFetch, cwd: vaultFolderPath(this) }),
      pomodoroTimer: (clock) => registerPomodoro(this, clock),
      onProblem: (message) => console.warn(`Vault Copilot: ${message}`),
      onIndexProgress: createIndexProgressStatusBar(this),
      onEmbeddingProgress: createEmbeddingProgressStatusBar(this),
      onPromptProblems: (problems) => {
        for (const problem of problems) new Notice(t("notice.prefixed", { message: noteLoadText("prompt", problem) }));
      },
      // Web pages through the window's DOMParser and Obsidian's htmlToMarkdown; large images scaled on a canvas.
      html: obsidianHtmlReader(),
      imageScaler: canvasImageScaler(),
      // A broken project note is reported by path; the other projects load.
      onProjectProblems: (problems) => {
        for (const problem of problems) new Notice(t("notice.prefixed", { message: noteLoadText("project", problem) }));
      },
    });
    this.register(() => void services.dispose());

    this.registerView(CHAT_VIEW_TYPE, (leaf) => new CopilotView(leaf, services));
    this.registerHoverLinkSource(CHAT_VIEW_TYPE, { display: t("view.title"), defaultMod: true });
    this.registerView(
      RELATED_VIEW_TYPE,
      (leaf) =>
        new RelatedNotesView(leaf, {
          source: services.related,
          addToChat: (path) => void this.openChatView().then((view) => view?.getController()?.addChip(noteChip(path))),
        }),
    );
    this.addCommand({ id: "open-related-notes", name: t("command.openRelated"), callback: () => void this.revealView(RELATED_VIEW_TYPE) });
    this.addRibbonIcon("bot-message-square", t("command.openChatRibbon"), () => void this.openChatView());
    registerChatCommands(this, () => this.openChatView());
    this.addCommand({ id: "show-last-request", name: t("command.showLastRequest"), callback: () => new PromptPayloadModal(this.app, services.recorder).open() });
    registerEditCommands(this, services.editHistory);
    registerPromptCommands(this, {
      prompts: services.prompts,
      vault: services.vault,
      promptsFolder: () => store.get().prompts.folder,
      openChatView: () => this.openChatView(),
      findChatView: () => this.findChatView(),
    });
    registerProjectCommands(this, { projects: services.projects, vault: services.vault, projectsFolder: () => store.get().projects.folder, openChatView: () => this.openChatView() });
    const completionUsage = new CompletionUsage(dataStore);
    registerInlineCompletion(this, { settings: () => store.get().completion, secrets, fetch: corsFreeFetch, usage: completionUsage, search: services.noteSearch });
    registerQuickQuestion(this, {
      vault: services.vault,
      createRunner: () => services.createRunner("chat", store.get().provider.model),
      replaceInFile: () => services.registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")?.tool,
      toolTimeoutMs: () => store.get().toolTimeoutSeconds * 1000,
      openChatView: () => this.openChatView(),
    });
    this.addSettingTab(new VaultCopilotSettingTab(this.app, this, store, services.registry, services.mcpHub, { fetch: corsFreeFetch, secrets }, services.indexHealth, completionUsage));
    this.addCommand({
      id: "rebuild-search-index",
      name: t("command.rebuildIndex"),
      callback: () => {
        services.noteIndex.rebuild().then(
          (report) => new Notice(t("notice.indexRebuilt", { count: report.indexed })),
          (error: unknown) => new Notice(t("notice.indexRebuildFailed", { reason: indexFailureText(error) })),
        );
      },
    });
    // The index, embedding and MCP servers start once the workspace is ready (never in onload: a
    // first build reads every note, a server may take seconds to spawn), and once the frame after
    // that is drawn: a chat view opening with the workspace shows its Message box first.
    const unloaded = new AbortController();
    this.register(() => unloaded.abort());
    this.app.workspace.onLayoutReady(() => afterNextPaint(() => services.start(), unloaded.signal));
  }

  /** Obsidian calls this when data.json changed on disk (e.g. by sync). */
  override async onExternalSettingsChange(): Promise<void> {
    await this.settingsStore?.reload();
  }

  /** Shows the chat view, opening it in the right sidebar when it is not open yet. */
  /** The chat view, when one is open. */
  private findChatView(): CopilotView | null {
    const view = this.app.workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0]?.view;
    return view instanceof CopilotView ? view : null;
  }

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

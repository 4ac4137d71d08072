import { Notice, Platform, Plugin } from "obsidian";
import { CopilotView } from "./components/CopilotView";
import { modalEditApproval } from "./components/EditApprovalModal";
import { registerEditCommands } from "./components/editCommands";
import { createIndexProgressStatusBar } from "./components/indexProgressStatusBar";
import { registerPomodoro } from "./components/pomodoroStatusBar";
import { modalToolCallApproval } from "./components/ToolCallApprovalModal";
import { createObsidianFetch } from "./LLMProviders/obsidianFetch";
import { McpHub } from "./mcp/McpHub";
import { pluginTransportFactory } from "./mcp/obsidianMcp";
import { CHAT_VIEW_TYPE } from "./constants";
import { systemClock, type Clock } from "./ports/Clock";
import { requestUrlHttp } from "./ports/requestUrlHttp";
import { NoteIndex } from "./search/NoteIndex";
import { ObsidianSecretStore } from "./settings/obsidianSecretStore";
import { VaultCopilotSettingTab } from "./settings/SettingsTab";
import { pluginDataFolder, pluginSettingsFile, SettingsStore } from "./settings/settingsStore";
import { BUILTIN_TOOLS, initializeBuiltinTools } from "./tools/builtinTools";
import { EditHistory } from "./tools/edit/EditHistory";
import { ToolRegistry } from "./tools/ToolRegistry";
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
    // The note index behind localSearch: loaded and brought up to date once the layout is ready.
    const noteIndex = new NoteIndex({
      vault,
      store: dataStore,
      getSettings: () => store.get().search,
      timeZone: () => clock.timeZone(),
      onProblem: (message) => console.warn(`Vault Copilot: ${message}`),
      onProgress: createIndexProgressStatusBar(this),
    });
    this.register(() => void noteIndex.dispose());

    const registry = ToolRegistry.getInstance();
    initializeBuiltinTools(registry, {
      vault,
      clock,
      http: requestUrlHttp,
      secrets,
      approval: modalEditApproval(this.app),
      getSettings: () => store.get(),
      editHistory,
      pomodoroTimer: registerPomodoro(this, clock),
      search: noteIndex,
    });
    this.register(() => registry.unregister(BUILTIN_TOOLS.map((entry) => entry.metadata.id)));

    const mcpHub = new McpHub({
      registry,
      createTransport: pluginTransportFactory({ isDesktop: Platform.isDesktop, secrets, fetch: createObsidianFetch(), cwd: vaultFolderPath(this) }),
      approval: modalToolCallApproval(this.app),
      isAutoApproved: (toolId) => store.get().autoApproveToolIds.includes(toolId),
    });
    this.register(() => void mcpHub.closeAll());

    this.registerView(CHAT_VIEW_TYPE, (leaf) => new CopilotView(leaf, store));
    this.addRibbonIcon("bot-message-square", "Open copilot chat", () => void this.openChatView());
    this.addCommand({ id: "open-chat", name: "Open chat", callback: () => void this.openChatView() });
    registerEditCommands(this, editHistory);
    this.addSettingTab(new VaultCopilotSettingTab(this.app, this, store, registry, mcpHub));

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
  private async openChatView(): Promise<void> {
    const { workspace } = this.app;
    let leaf = workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      await leaf?.setViewState({ type: CHAT_VIEW_TYPE, active: true });
    }
    if (leaf) await workspace.revealLeaf(leaf);
  }
}

/** The vault's folder on disk, where desktop stdio MCP servers start; undefined elsewhere. */
function vaultFolderPath(plugin: Plugin): string | undefined {
  const adapter = plugin.app.vault.adapter as { getBasePath?: () => string };
  return typeof adapter.getBasePath === "function" ? adapter.getBasePath() : undefined;
}

import { PluginSettingTab, Setting, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import type { ToolRegistry } from "../../tools/ToolRegistry";
import type { McpStatusSource } from "./mcpSettingsSection";
import type { IndexHealthSource } from "./semanticSearchSection";
import type { CompletionUsageSource } from "./completionSection";
import type { SettingsSection } from "./settingRows";
import { buildSettingsSections } from "./settingsSections";
import type { SettingsStore } from "./settingsStore";

/**
 * The plugin's settings tab. Each row is written once (settingsSections.ts) and shown two ways:
 * declaratively through `getSettingDefinitions()` on Obsidian 1.13+, where it is searchable, and
 * through `display()` on 1.11.4 to 1.12, which have no declarative settings.
 */
export class VaultCopilotSettingTab extends PluginSettingTab {
  private cleanups: (() => void)[] = [];

  constructor(
    app: App,
    plugin: Plugin,
    private readonly store: SettingsStore,
    private readonly registry: ToolRegistry,
    private readonly mcp?: McpStatusSource,
    private readonly connection?: ChatModelPorts,
    private readonly indexHealth?: IndexHealthSource,
    private readonly completionUsage?: CompletionUsageSource,
  ) {
    super(app, plugin);
  }

  private sections(): SettingsSection[] {
    return buildSettingsSections({ app: this.app, store: this.store, registry: this.registry, mcp: this.mcp, connection: this.connection, indexHealth: this.indexHealth, completionUsage: this.completionUsage });
  }

  override getSettingDefinitions(): SettingDefinitionItem[] {
    return this.sections().map((section) => ({
      type: "group",
      heading: section.heading,
      items: section.rows.map((row) => ({
        name: row.name,
        desc: row.desc,
        render: (setting: Setting) => row.render(setting) ?? undefined,
      })),
    }));
  }

  /** Draws the tab on Obsidian 1.11.4 to 1.12; 1.13+ draws `getSettingDefinitions()` instead. */
  override display(): void {
    this.releaseRows();
    this.containerEl.empty();
    for (const section of this.sections()) {
      new Setting(this.containerEl).setName(section.heading).setHeading();
      for (const row of section.rows) {
        const cleanup = row.render(new Setting(this.containerEl).setName(row.name).setDesc(row.desc));
        if (cleanup) this.cleanups.push(cleanup);
      }
    }
  }

  override hide(): void {
    this.releaseRows();
    super.hide();
  }

  /** Undoes the rows' subscriptions and unmounts the tool list's React root. */
  private releaseRows(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}

import { Setting, type App } from "obsidian";
import { errorMessage } from "../../errorMessage";
import type { McpServerSettings } from "../../settings/settingsSchema";
import { draftOf, EMPTY_SERVER_DRAFT, serverOf, type McpServerDraft } from "./mcpServerForm";
import { SettingsFormModal } from "./SettingsFormModal";
import { t } from "../../i18n/t";

export interface McpServerFormOptions {
  /** The server to edit; absent: a new one. */
  server?: McpServerSettings;
  /** Names the other servers have (a name keys its tools). */
  takenNames: readonly string[];
  onSave: (server: McpServerSettings) => void;
}

const transports = () => ({ stdio: t("mcpForm.stdio"), http: t("mcpForm.http") });

/**
 * One MCP server as a form: its name, on or off, how it is reached (a program with its arguments
 * and environment, or a URL with its headers), the variables and headers naming secrets in
 * Obsidian's secret storage, never their values. The same settings as the JSON view.
 */
export class McpServerModal extends SettingsFormModal {
  private draft: McpServerDraft;

  constructor(
    app: App,
    private readonly options: McpServerFormOptions,
  ) {
    super(app);
    this.draft = options.server ? draftOf(options.server) : { ...EMPTY_SERVER_DRAFT };
  }

  override onOpen(): void {
    const { contentEl } = this;
    this.titleEl.setText(this.options.server ? t("settings.editNamed", { name: this.options.server.name }) : t("mcpForm.add"));
    contentEl.addClass("vault-copilot-mcp-form");
    const field = (name: string, desc: string, key: "name" | "command" | "url", placeholder: string) =>
      new Setting(contentEl)
        .setName(name)
        .setDesc(desc)
        .addText((text) => {
          text.inputEl.setAttribute("aria-label", name);
          text.setPlaceholder(placeholder).setValue(this.draft[key]);
          text.onChange((value) => (this.draft = { ...this.draft, [key]: value }));
        });
    const lines = (name: string, desc: string, key: "args" | "env" | "headers", placeholder: string) =>
      new Setting(contentEl)
        .setName(name)
        .setDesc(desc)
        .addTextArea((area) => {
          area.inputEl.setAttribute("aria-label", name);
          area.inputEl.rows = 3;
          area.setPlaceholder(placeholder).setValue(this.draft[key]);
          area.onChange((value) => (this.draft = { ...this.draft, [key]: value }));
        });

    field(t("mcpForm.name"), t("mcpForm.nameDesc"), "name", "files");
    new Setting(contentEl).setName(t("mcpForm.on")).addToggle((toggle) => {
      toggle.setValue(this.draft.enabled).onChange((enabled) => (this.draft = { ...this.draft, enabled }));
      toggle.setTooltip(t("mcpForm.connect"));
    });
    const stdioRows: Setting[] = [];
    const httpRows: Setting[] = [];
    const showTransport = () => {
      for (const row of stdioRows) row.settingEl.toggle(this.draft.transport === "stdio");
      for (const row of httpRows) row.settingEl.toggle(this.draft.transport === "http");
    };
    new Setting(contentEl).setName(t("mcpForm.transport")).addDropdown((dropdown) => {
      dropdown.addOptions(transports()).setValue(this.draft.transport);
      dropdown.selectEl.setAttribute("aria-label", t("mcpForm.transport"));
      dropdown.onChange((value) => {
        this.draft = { ...this.draft, transport: value === "http" ? "http" : "stdio" };
        showTransport();
      });
    });
    stdioRows.push(
      field(t("mcpForm.command"), t("mcpForm.commandDesc"), "command", "npx"),
      lines(t("mcpForm.arguments"), t("mcpForm.argumentsDesc"), "args", "-y\n@modelcontextprotocol/server-filesystem\n/path/to/folder"),
      lines(t("mcpForm.environment"), t("mcpForm.environmentDesc"), "env", "GITHUB_TOKEN=github-token"),
    );
    httpRows.push(
      field(t("mcpForm.url"), t("mcpForm.urlDesc"), "url", "https://example.com/mcp"),
      lines(t("mcpForm.headers"), t("mcpForm.headersDesc"), "headers", "Authorization=remote-mcp-token"),
    );
    showTransport();
    this.addFooter();
  }

  protected save(): void {
    let server: McpServerSettings;
    try {
      server = serverOf(this.draft, this.options.takenNames);
    } catch (error) {
      this.showProblem(errorMessage(error));
      return;
    }
    this.options.onSave(server);
    this.close();
  }
}

import { errorMessage } from "../../errorMessage";
import { zodIssueText } from "./zodIssueText";
import type { McpServerStatus } from "../../mcp/McpHub";
import { describeLeftOutTools, leftOutGroups, MCP_LIMITS_SHOWN, type LeftOutMcpTool } from "../../mcp/mcpToolLimits";
import { ENGLISH } from "../../i18n/languages";
import { McpServerModal } from "./McpServerModal";
import { serverSummary } from "./mcpServerForm";
import { mcpStatusLine } from "./mcpStatusText";
import { fieldRow, lineButton, save, type RowContext, type SettingsRow, type SettingsSection } from "./settingRows";
import { copilotSettingsSchema, type McpServerSettings } from "../../settings/settingsSchema";
import { currentLanguage, t } from "../../i18n/t";

/** What the MCP section shows of the live connections. */
export interface McpStatusSource {
  getStatuses(): McpServerStatus[];
  onStatusChange(listener: () => void): () => void;
}

const EXAMPLE: McpServerSettings[] = [
  {
    name: "files",
    enabled: true,
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/path/to/folder"],
    env: {},
  },
  { name: "remote", enabled: false, transport: "http", url: "https://example.com/mcp", headers: { Authorization: "remote-mcp-token" } },
];

/** "text" -> server list; throws with a message the row shows under its name. */
export function parseMcpServersText(text: string): McpServerSettings[] {
  if (text.trim() === "") return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(t("settings.mcpJson.notJson", { reason: errorMessage(error) }));
  }
  const parsed = copilotSettingsSchema.shape.mcpServers.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "custom") throw new Error(zodIssueText(issue));
    throw new Error(issue ? t("settings.mcpJson.badServer", { path: issue.path.join("."), reason: zodIssueText(issue) }) : t("settings.mcpJson.notList"));
  }
  return parsed.data;
}

function statusRow(source: McpStatusSource): SettingsRow {
  return {
    name: t("settings.mcpStatus.name"),
    desc: t("settings.mcpStatus.desc"),
    render(setting) {
      const list = setting.controlEl.createDiv({ cls: "vault-copilot-mcp-status" });
      const draw = () => {
        list.empty();
        const statuses = source.getStatuses();
        if (statuses.length === 0) list.createDiv({ text: t("settings.mcpStatus.none") });
        for (const status of statuses) {
          const line = mcpStatusLine(status);
          list.createDiv({ cls: `vault-copilot-mcp-${status.state}`, text: line.text });
          if (line.details !== undefined) {
            const details = list.createEl("details", { cls: "vault-copilot-mcp-error-details" });
            details.createEl("summary", { text: t("message.details") });
            details.createDiv({ text: line.details });
          }
          for (const leftOut of leftOutLines(status.leftOut ?? [])) list.createDiv({ cls: "vault-copilot-mcp-left-out", text: leftOut });
        }
      };
      draw();
      return source.onStatusChange(draw);
    },
  };
}

/** The servers as a list: each with Edit and Remove, "Add server" opening an empty form. */
function serverListRow(context: RowContext): SettingsRow {
  return {
    name: t("settings.mcpServers.name"),
    desc: t("settings.mcpServers.desc"),
    render(setting) {
      const list = setting.infoEl.createDiv({ cls: "vault-copilot-mcp-servers" });
      const names = (except?: string) => context.store.get().mcpServers.map((server) => server.name).filter((name) => name !== except);
      setting.addButton((button) =>
        button.setButtonText(t("settings.mcpServers.add")).onClick(() =>
          new McpServerModal(context.app, { takenNames: names(), onSave: (server) => save(context.store, (s) => ({ ...s, mcpServers: [...s.mcpServers, server] })) }).open(),
        ),
      );
      const draw = () => {
        list.empty();
        const servers = context.store.get().mcpServers;
        if (servers.length === 0) list.createDiv({ text: t("settings.noneYet") });
        for (const server of servers) {
          const line = list.createDiv({ cls: "vault-copilot-mcp-server" });
          line.createSpan({ cls: "vault-copilot-mcp-server-name", text: server.name });
          line.createSpan({ cls: "vault-copilot-mcp-server-summary", text: ` ${serverSummary(server)} ` });
          lineButton(line, t("settings.edit"), t("settings.editNamed", { name: server.name }), () =>
            new McpServerModal(context.app, {
              server,
              takenNames: names(server.name),
              onSave: (changed) => save(context.store, (s) => ({ ...s, mcpServers: s.mcpServers.map((candidate) => (candidate.name === server.name ? changed : candidate)) })),
            }).open(),
          );
          lineButton(line, t("settings.remove"), t("settings.removeNamed", { name: server.name }), () => save(context.store, (s) => ({ ...s, mcpServers: s.mcpServers.filter((candidate) => candidate.name !== server.name) })));
        }
      };
      draw();
      return context.store.subscribe(draw);
    },
  };
}

/**
 * The same list as JSON, the advanced view: folded behind "Show JSON"; what is typed there is saved
 * once it is a valid list, and the list above follows, as this follows the list.
 */
function serversJsonRow(context: RowContext): SettingsRow {
  const row = fieldRow(context, {
    name: t("settings.mcpJson.name"),
    desc: t("settings.mcpJson.desc"),
    read: (s) => s.mcpServers,
    write: (s, mcpServers) => ({ ...s, mcpServers }),
    schema: copilotSettingsSchema.shape.mcpServers,
    parse: parseMcpServersText,
    format: (servers) => (servers.length === 0 ? "" : JSON.stringify(servers, null, 2)),
    placeholder: JSON.stringify(EXAMPLE, null, 2),
    multiline: true,
  });
  return {
    ...row,
    render(setting) {
      const undo = row.render(setting);
      setting.settingEl.addClass("vault-copilot-mcp-json");
      setting.addButton((button) => {
        const show = (open: boolean) => {
          setting.settingEl.toggleClass("is-open", open);
          button.setButtonText(open ? t("settings.mcpJson.hide") : t("settings.mcpJson.show"));
          button.buttonEl.setAttribute("aria-expanded", String(open));
        };
        show(false);
        button.onClick(() => show(!setting.settingEl.hasClass("is-open")));
      });
      return undo;
    },
  };
}

/** MCP servers: the list with its form, the same list as JSON (advanced), and their status. */
export function mcpSection(context: RowContext, source: McpStatusSource | undefined): SettingsSection {
  const rows: SettingsRow[] = [serverListRow(context), serversJsonRow(context)];
  if (source) rows.push(statusRow(source));
  return { heading: t("settings.mcp"), rows };
}

/** The MCP tools a server's status left out, a line per limit, in the interface's language (English: as the CLI prints them). */
export function leftOutLines(leftOut: readonly LeftOutMcpTool[]): string[] {
  if (currentLanguage() === ENGLISH) return describeLeftOutTools(leftOut);
  return leftOutGroups(leftOut).map(({ limit, count, names, more }) => {
    const listed = more > 0 ? t("settings.mcpLeftOut.more", { names: names.join(", "), count: more }) : names.join(", ");
    return t(`settings.mcpLeftOut.${limit}`, { count, limit: MCP_LIMITS_SHOWN[limit], names: listed });
  });
}

import { errorMessage } from "../../errorMessage";
import type { McpServerStatus } from "../../mcp/McpHub";
import { describeLeftOutTools } from "../../mcp/mcpToolLimits";
import { fieldRow, type RowContext, type SettingsRow, type SettingsSection } from "./settingRows";
import { copilotSettingsSchema, type McpServerSettings } from "../../settings/settingsSchema";

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
    throw new Error(`Not valid JSON: ${errorMessage(error)}`);
  }
  const parsed = copilotSettingsSchema.shape.mcpServers.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === "custom") throw new Error(issue.message);
    throw new Error(issue ? `Server ${issue.path.join(".")}: ${issue.message}` : "Not a list of servers.");
  }
  return parsed.data;
}

function statusRow(source: McpStatusSource): SettingsRow {
  return {
    name: "Connections",
    desc: "Servers connect when Obsidian starts and whenever this list changes; their tools then appear under Agent tools.",
    render(setting) {
      const list = setting.controlEl.createDiv({ cls: "vault-copilot-mcp-status" });
      const draw = () => {
        list.empty();
        const statuses = source.getStatuses();
        if (statuses.length === 0) list.createDiv({ text: "No server connected." });
        for (const status of statuses) {
          const line = `${status.name}: ${status.state}${status.state === "connected" ? `, ${status.toolIds.length} tools` : ""}${status.error ? ` (${status.error})` : ""}`;
          list.createDiv({ cls: `vault-copilot-mcp-${status.state}`, text: line });
          for (const leftOut of describeLeftOutTools(status.leftOut ?? [])) list.createDiv({ cls: "vault-copilot-mcp-left-out", text: leftOut });
        }
      };
      draw();
      return source.onStatusChange(draw);
    },
  };
}

/** MCP servers: the list as JSON (stdio: command, args, env; http: url, headers; names of secrets, not values) and their status. */
export function mcpSection(context: RowContext, source: McpStatusSource | undefined): SettingsSection {
  const rows: SettingsRow[] = [
    fieldRow(context, {
      name: "Servers",
      desc:
        'A JSON list. Each server: "name" (letters, digits, "-"; no two alike), "enabled", and "transport": ' +
        '"stdio" (desktop only) with "command", "args" and "env" (variable names), or "http" with "url" and "headers" ' +
        "(header names). Variables and headers map to the ids of secrets in Obsidian's secret storage, never the values themselves.",
      read: (s) => s.mcpServers,
      write: (s, mcpServers) => ({ ...s, mcpServers }),
      schema: copilotSettingsSchema.shape.mcpServers,
      parse: parseMcpServersText,
      format: (servers) => (servers.length === 0 ? "" : JSON.stringify(servers, null, 2)),
      placeholder: JSON.stringify(EXAMPLE, null, 2),
      multiline: true,
    }),
  ];
  if (source) rows.push(statusRow(source));
  return { heading: "MCP servers", rows };
}

import { promises as fs } from "node:fs";
import { createHttpTransport } from "../mcp/httpTransport";
import { parseMcpConfigFile } from "../mcp/mcpConfig";
import { McpHub, type McpServerStatus } from "../mcp/McpHub";
import { createStdioTransport } from "../mcp/node/stdioTransport";
import { MapSecretStore } from "../settings/secrets";
import type { ToolCallApprovalPort } from "../tools/approval";
import type { ToolRegistry } from "../tools/ToolRegistry";

/**
 * Connects the servers of an MCP config file (the CLI's `--mcp-config` / `--config`) and registers
 * their tools in `registry`. Values the file gives (env, headers) are held in memory only.
 */
export async function connectMcpFromConfigFile(
  path: string,
  registry: ToolRegistry,
  approval: ToolCallApprovalPort,
): Promise<{ hub: McpHub; statuses: McpServerStatus[] }> {
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read MCP config ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const { servers, values } = parseMcpConfigFile(text);
  const secrets = new MapSecretStore();
  for (const [id, value] of values) secrets.set(id, value);
  const hub = new McpHub({
    registry,
    createTransport: (config) =>
      Promise.resolve(config.transport === "http" ? createHttpTransport(config, secrets) : createStdioTransport(config, secrets)),
    approval,
    // --yes in the CLI approves through the approval port itself; nothing is auto-approved here.
    isAutoApproved: () => false,
  });
  const statuses = await hub.sync(servers);
  return { hub, statuses };
}

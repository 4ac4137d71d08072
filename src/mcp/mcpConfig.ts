import { errorMessage } from "../errorMessage";
import { z } from "zod";
import type { HttpMcpServerSettings, McpServerSettings, StdioMcpServerSettings } from "../settings/settingsSchema";

/**
 * An MCP server to connect to: `{ transport: "stdio", command, args, env }` or
 * `{ transport: "http", url, headers }`. Settings hold these (`mcpServers`); the CLI reads them from
 * a JSON file in the widely used `{ "mcpServers": { "<name>": { "command", "args", "env" } |
 * { "url", "headers" } } }` form. Secret values never appear here: `env` and `headers` map a name
 * to a SecretStorage id (the CLI's file may give plain values, since it is the user's own file
 * on their machine; they are held in memory under generated ids).
 */
export type McpServerConfig = McpServerSettings;
export type StdioMcpServerConfig = StdioMcpServerSettings;
export type HttpMcpServerConfig = HttpMcpServerSettings;

const SERVER_NAME = /^[A-Za-z0-9-]+$/;

const stdioEntry = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  disabled: z.boolean().default(false),
});
const httpEntry = z.object({
  url: z.url(),
  headers: z.record(z.string(), z.string()).default({}),
  disabled: z.boolean().default(false),
});
const configFile = z.object({ mcpServers: z.record(z.string(), z.union([stdioEntry, httpEntry])) });

export class McpConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpConfigError";
  }
}

/** A server config file's text as server configs and, separately, the plain values it gives. */
export function parseMcpConfigFile(text: string): { servers: McpServerConfig[]; values: Map<string, string> } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`MCP config is not valid JSON: ${errorMessage(error)}`);
  }
  const parsed = configFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new McpConfigError(`MCP config: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`);
  }
  const servers: McpServerConfig[] = [];
  const values = new Map<string, string>();
  for (const [name, entry] of Object.entries(parsed.data.mcpServers)) {
    if (!SERVER_NAME.test(name)) throw new McpConfigError(`MCP server name "${name}": use letters, digits and "-" only`);
    // Plain values from the file are held under generated ids, as SecretStorage would hold them.
    const toSecretIds = (pairs: Record<string, string>): Record<string, string> => {
      const ids: Record<string, string> = {};
      for (const [key, value] of Object.entries(pairs)) {
        const id = `mcp-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${key.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`.replace(/-+$/g, "");
        values.set(id, value);
        ids[key] = id;
      }
      return ids;
    };
    servers.push(
      "command" in entry
        ? { name, enabled: !entry.disabled, transport: "stdio", command: entry.command, args: entry.args, env: toSecretIds(entry.env) }
        : { name, enabled: !entry.disabled, transport: "http", url: entry.url, headers: toSecretIds(entry.headers) },
    );
  }
  return { servers, values };
}

import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SecretStore } from "../../settings/secrets";
import type { McpServerConfig } from "../mcpConfig";

/**
 * The stdio transport: starts the server as a child process. Node only — in Obsidian it is loaded
 * on desktop alone (`Platform.isDesktop`), never on mobile. The child gets the SDK's safe default
 * environment plus the configured variables, whose values come from the SecretStore.
 */
export function createStdioTransport(config: McpServerConfig, secrets: SecretStore, cwd?: string): Transport {
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  for (const [name, secretId] of Object.entries(config.env)) {
    const value = secrets.get(secretId);
    if (value === null) throw new Error(`MCP server "${config.name}": no secret "${secretId}" for ${name}`);
    env[name] = value;
  }
  return new StdioClientTransport({ command: config.command, args: config.args, env, stderr: "pipe", cwd });
}

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { FetchLike } from "../ports/FetchLike";
import type { SecretStore } from "../ports/SecretStore";
import { createHttpTransport } from "./httpTransport";
import type { McpServerConfig } from "./mcpConfig";

/**
 * The transport factory the plugin hands the McpHub. HTTP servers work everywhere; stdio servers
 * are processes, so only the desktop app can start them, and the Node-only transport is loaded
 * (lazily) only there: mobile never evaluates it.
 */
export function pluginTransportFactory(options: {
  isDesktop: boolean;
  secrets: SecretStore;
  /** A fetch without CORS limits (local HTTP servers rarely send CORS headers). */
  fetch?: FetchLike;
  /** Where stdio servers start (the vault folder on desktop). */
  cwd?: string;
}): (config: McpServerConfig) => Promise<Transport> {
  return async (config) => {
    if (config.transport === "http") return createHttpTransport(config, options.secrets, options.fetch);
    if (!options.isDesktop) throw new Error("stdio MCP servers can only be started by the desktop app; use an http server on mobile");
    const { createStdioTransport } = await import("./node/stdioTransport");
    return createStdioTransport(config, options.secrets, options.cwd);
  };
}

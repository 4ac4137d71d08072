import type { ToolRegistry } from "../tools/ToolRegistry";
import { createMcpToolWrapper, mcpModelToolNames, mcpToolIdPrefix, type McpTool, type McpToolWrapperOptions } from "./createMcpToolWrapper";

/**
 * Registers a server's tools, replacing whatever that server registered before (a reconnect or a
 * `tools/list_changed` notification). Other tools are not touched.
 */
export function registerMcpServerTools(
  registry: ToolRegistry,
  serverName: string,
  mcpTools: readonly McpTool[],
  options: McpToolWrapperOptions,
): string[] {
  const modelNames = mcpModelToolNames(
    serverName,
    mcpTools.map((mcpTool) => mcpTool.name),
  );
  const definitions = mcpTools.map((mcpTool) => createMcpToolWrapper(serverName, mcpTool, options, modelNames.get(mcpTool.name)));
  const keep = new Set(definitions.map((definition) => definition.metadata.id));
  const stale = registry
    .getAllTools()
    .map((definition) => definition.metadata.id)
    .filter((id) => id.startsWith(mcpToolIdPrefix(serverName)) && !keep.has(id));
  registry.unregister(stale);
  registry.registerAll(definitions);
  return [...keep];
}

/** Removes every tool of a server; returns how many were removed. */
export function unregisterMcpServerTools(registry: ToolRegistry, serverName: string): number {
  return registry.unregisterByPrefix(mcpToolIdPrefix(serverName));
}

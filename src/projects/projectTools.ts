import { mcpToolIdPrefix } from "../mcp/createMcpToolWrapper";
import type { ToolDefinition } from "../tools/SimpleTool";
import type { ToolSource } from "../tools/ToolRegistry";

/**
 * The tools a chat in a project may bind, deny by default: each built-in tool as made again over
 * the project's vault and search (`scopedBuiltins`, so it can reach nothing else), and the tools
 * of the MCP servers the project note lists. MCP tools cannot be scoped (a server reads what it
 * likes), so those of any other server are off; so is any other tool the registry holds.
 * Enabled ids and the settings' choices are the registry's, as outside a project.
 */
export function projectToolSource(registry: ToolSource, scopedBuiltins: readonly ToolDefinition[], mcpServers: readonly string[]): ToolSource {
  const own = new Map(scopedBuiltins.map((definition) => [definition.metadata.id, definition]));
  const prefixes = mcpServers.map(mcpToolIdPrefix);
  return {
    getEnabledDefinitions: (enabledToolIds, vaultAvailable) =>
      registry.getEnabledDefinitions(enabledToolIds, vaultAvailable).flatMap((definition) => {
        const scoped = own.get(definition.metadata.id);
        if (scoped) return [scoped];
        const listed = definition.metadata.category === "mcp" && prefixes.some((prefix) => definition.metadata.id.startsWith(prefix));
        return listed ? [definition] : [];
      }),
  };
}

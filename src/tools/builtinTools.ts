import type { AnySimpleTool, ToolDefinition, ToolMetadata } from "./SimpleTool";
import type { ToolDependencies } from "./toolDependencies";
import type { ToolRegistry } from "./ToolRegistry";

/**
 * A built-in tool: its metadata, and how to make the tool from the dependencies it needs.
 * Metadata is static so the settings UI and the defaults can list tools before anything runs.
 */
export interface BuiltinToolEntry {
  metadata: ToolMetadata;
  create: (dependencies: ToolDependencies) => AnySimpleTool;
}

/** Every built-in tool, in the order the settings UI and the prompt's tool guidance list them. */
export const BUILTIN_TOOLS: readonly BuiltinToolEntry[] = [];

/** The built-in tool definitions for these dependencies. */
export function createBuiltinToolDefinitions(dependencies: ToolDependencies): ToolDefinition[] {
  return BUILTIN_TOOLS.map((entry) => ({ metadata: entry.metadata, tool: entry.create(dependencies) }));
}

/**
 * Registers the built-in tools, replacing earlier built-in registrations (a vault that comes or
 * goes re-creates them) and leaving other tools (MCP) where they are.
 */
export function initializeBuiltinTools(registry: ToolRegistry, dependencies: ToolDependencies): void {
  registry.registerAll(createBuiltinToolDefinitions(dependencies));
}

import type { AnySimpleTool, ToolMetadata } from "./SimpleTool";
import type { ToolDependencies } from "./toolDependencies";

/**
 * A built-in tool: its metadata, and how to make the tool from the dependencies it needs.
 * Metadata is static so the settings UI and the defaults can list tools before anything runs.
 * In a file of its own so each tool can name it without importing the list of every tool
 * (`builtinTools.ts`), which imports each tool.
 */
export interface BuiltinToolEntry {
  metadata: ToolMetadata;
  create: (dependencies: ToolDependencies) => AnySimpleTool;
}

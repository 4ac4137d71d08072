import { z } from "zod";
import type { ToolGuidance } from "../../context/systemPrompt";
import type { AnySimpleTool, ToolDefinition } from "../../tools/SimpleTool";

/** A tool in the OpenAI chat-completions format, as it is bound and sent. */
export interface OpenAIToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * A tool as the model sees it: its name, description and the JSON Schema of its arguments (the
 * tool's own JSON Schema when it has one, as MCP tools do, else its zod schema's input side).
 * Made here rather than by LangChain so what is sent is known exactly and stays the same from
 * request to request.
 */
export function toOpenAITool(tool: AnySimpleTool): OpenAIToolDefinition {
  const parameters: Record<string, unknown> = tool.inputJsonSchema ?? z.toJSONSchema(tool.schema, { io: "input", unrepresentable: "any" });
  const { $schema: _dialect, ...rest } = parameters;
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: rest } };
}

/** The enabled tools' guidance for L1, in the order the tools are given (the registry's). */
export function toolGuidanceOf(definitions: readonly ToolDefinition[]): ToolGuidance[] {
  return definitions
    .filter((definition) => (definition.metadata.customPromptInstructions ?? "").trim().length > 0)
    .map((definition) => ({ toolName: definition.tool.name, instructions: definition.metadata.customPromptInstructions ?? "" }));
}

/** The model's argument text as an object for the assistant message (a broken text becomes {}). */
export function argumentsObject(argumentsText: string): Record<string, unknown> {
  const parsed = parseArguments(argumentsText);
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** The arguments for the view: parsed when they are JSON, else the raw text. */
export function parseArguments(argumentsText: string): unknown {
  if (argumentsText.trim() === "") return {};
  try {
    return JSON.parse(argumentsText) as unknown;
  } catch {
    return argumentsText;
  }
}

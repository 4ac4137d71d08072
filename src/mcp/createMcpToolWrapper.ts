import { errorMessage, type ToolFailure } from "../errorMessage";
import { defuseToolText } from "../context/escapeXml";
import type { ToolCallApprovalPort } from "../ports/approval";
import type { SimpleTool, ToolDefinition } from "../tools/SimpleTool";
import { convertMcpSchemaToZod } from "./convertMcpSchemaToZod";
import { formatMcpResponse, mcpErrorFailure, type McpCallResult } from "./formatMcpResponse";
import { defuseSchemaText } from "./defuseSchemaText";

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
}

/** A call to a server that is not connected (it crashed, or never started): ours to word, not the server's. */
export class McpServerNotConnectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpServerNotConnectedError";
  }
}

/** What a wrapped tool calls: the hub, which owns the connection (it throws McpServerNotConnectedError for a server that is gone). */
export interface McpToolCaller {
  callTool(serverName: string, toolName: string, args: unknown, signal: AbortSignal): Promise<McpCallResult>;
}

export interface McpToolWrapperOptions {
  caller: McpToolCaller;
  /** Asked before every call of a tool the user has not auto-approved. */
  approval: ToolCallApprovalPort;
  /** True when the user switched approval off for this tool id. */
  isAutoApproved: (toolId: string) => boolean;
}

export interface McpToolOutput {
  isError: boolean;
  text: string;
  structuredContent?: unknown;
  /** For an error: its kind, the server's own words among the values (see mcpErrorFailure). */
  failure?: ToolFailure;
}

/** The registry id of a server's tool. The settings key it is enabled under. */
export function mcpToolId(serverName: string, toolName: string): string {
  return `${mcpToolIdPrefix(serverName)}${toolName}`;
}

/** Every tool id of a server starts with this. */
export function mcpToolIdPrefix(serverName: string): string {
  return `mcp_${serverName}_`;
}

/** The name the model calls: OpenAI-compatible (`[A-Za-z0-9_-]`, at most 64 characters). */
export function mcpModelToolName(serverName: string, toolName: string): string {
  return `${serverName}_${toolName}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/**
 * The model-facing names of one server's tools. Names that sanitise alike (`a.b` and `a_b`) would
 * be refused by the registry and fail the whole server, so each of them gets a suffix hashed from
 * its original name: the same name every time, whatever order the server lists its tools in.
 */
export function mcpModelToolNames(serverName: string, toolNames: readonly string[]): Map<string, string> {
  const plain = toolNames.map((toolName) => mcpModelToolName(serverName, toolName));
  const counts = new Map<string, number>();
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = new Map<string, string>();
  toolNames.forEach((toolName, index) => {
    const name = plain[index] ?? "";
    const shared = (counts.get(name) ?? 0) > 1;
    names.set(toolName, shared ? `${name.slice(0, 64 - 7)}_${shortHash(toolName)}` : name);
  });
  return names;
}

/** Six hex digits of FNV-1a over the text: short, stable, and different for near-identical names. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0").slice(0, 6);
}

/**
 * Wraps one MCP tool as a SimpleTool with its registry metadata. `modelName` is the name the
 * model calls it by (see mcpModelToolNames); by default the sanitised server and tool name.
 * What the server says reaches the model as data, as built-in tools' output does: results lose
 * closing tags' "<" and the question label's bracket (defuseToolText); the description and every
 * text in the input schema lose the label's bracket, so no server can pose as the user's question.
 */
export function createMcpToolWrapper(
  serverName: string,
  mcpTool: McpTool,
  options: McpToolWrapperOptions,
  modelName = mcpModelToolName(serverName, mcpTool.name),
): ToolDefinition {
  const id = mcpToolId(serverName, mcpTool.name);
  // The server's word only: shown to the user, never a reason to skip approval (a server could claim it for anything).
  const readOnly = mcpTool.annotations?.readOnlyHint === true;
  const displayName = mcpTool.title ?? mcpTool.annotations?.title ?? mcpTool.name;
  // The schema the model is shown is the one arguments are checked against.
  const inputJsonSchema = defuseSchemaText(mcpTool.inputSchema);
  const { schema } = convertMcpSchemaToZod(inputJsonSchema);

  const tool: SimpleTool<unknown, McpToolOutput> = {
    name: modelName,
    description: defuseSchemaText(mcpTool.description || `MCP tool "${mcpTool.name}" from server "${serverName}"`),
    schema,
    inputJsonSchema,
    isReadOnly: readOnly,
    async func(args, context): Promise<McpToolOutput> {
      const { signal } = context;
      if (!options.isAutoApproved(id)) {
        // The user may take their time: the wait is not part of the call's time limit.
        // The chat whose run made the call, when one did; else the port the hub was given.
        const asked = context.approvals ?? options.approval;
        const ask = () => asked.requestToolCallApproval({ toolId: id, source: serverName, toolName: mcpTool.name, arguments: args }, signal);
        const decision = await (context.untimed ? context.untimed(ask) : ask());
        if (!decision.approved) {
          return {
            isError: true,
            text: `The user did not approve this call of ${mcpTool.name}: ${decision.reason}`,
            failure: { kind: "mcp-not-approved", values: { tool: displayName } },
          };
        }
      }
      try {
        const result = await options.caller.callTool(serverName, mcpTool.name, args, signal);
        const isError = result.isError === true;
        return { isError, text: formatMcpResponse(result), structuredContent: result.structuredContent, ...(isError ? { failure: mcpErrorFailure(result) } : {}) };
      } catch (error) {
        // Failures come back as results the model can act on, as MCP itself reports tool errors.
        if (signal.aborted) throw error;
        const detail = errorMessage(error);
        // Our own reason (the server is gone) is the view's to word; any other is the SDK's or the server's, kept as it is.
        const failure: ToolFailure =
          error instanceof McpServerNotConnectedError
            ? { kind: "mcp-not-connected", values: { server: serverName, tool: displayName } }
            : { kind: "mcp-call-failed", values: { server: serverName, tool: displayName, detail } };
        return { isError: true, text: `MCP server "${serverName}" could not run ${mcpTool.name}: ${detail}`, failure };
      }
    },
    formatForModel: (output) => defuseToolText(output.text),
    // An error result is still what the model reads; the call counts as failed for the person.
    failureOf: (output) => (output.isError ? output.failure : undefined),
  };

  return {
    tool,
    metadata: {
      id,
      displayName,
      description: mcpTool.description || `From MCP server "${serverName}"`,
      category: "mcp",
      isAlwaysEnabled: false,
      wording: {
        pending: `Would like to run ${displayName} (${serverName})`,
        running: `Running ${displayName} (${serverName})`,
        done: `Ran ${displayName} (${serverName})`,
      },
    },
  };
}

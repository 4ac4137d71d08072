import type { McpTool } from "./createMcpToolWrapper";

/**
 * How many MCP tools, and how much of their definitions, go with every model request. Without a
 * limit one server listing 20,000 tools, or one schema of 5 MB, would be sent with every request
 * (and refused by most providers, or fill the model's context). Servers are served in the order
 * they connect; what does not fit is left out, and its server's status says which and why.
 *
 * - 100 tools: OpenAI refuses a request with more than 128 tools, and the 16 built-in tools
 *   (room left for more) are bound beside them.
 * - 32 KB for one tool (its name, description and input schema as JSON): 34 times the largest
 *   tool of server-everything and server-filesystem (958 bytes; their median is 341 and 497).
 * - 128 KB for all of them together: about 32,000 tokens, a quarter of a 128k context window, and
 *   still room for 100 tools of 1.3 KB, over twice those servers' median.
 */
export const MAX_MCP_TOOLS = 100;
export const MAX_MCP_TOOL_BYTES = 32 * 1024;
export const MAX_MCP_TOOLS_BYTES = 128 * 1024;

/** Which limit left a tool out. */
export type McpToolLimit = "tool-size" | "count" | "total-size";

export interface LeftOutMcpTool {
  /** The tool's name as its server lists it. */
  name: string;
  limit: McpToolLimit;
  /** The tool's definition as sent, in UTF-8 bytes. */
  bytes: number;
}

/** What the MCP tools registered so far take of the limits. */
export interface McpToolUsage {
  tools: number;
  bytes: number;
}

export const NO_MCP_TOOLS: McpToolUsage = { tools: 0, bytes: 0 };

const encoder = new TextEncoder();

/** A tool's name, description and input schema as JSON, in UTF-8 bytes: about what a request carries for it. */
export function mcpToolBytes(tool: McpTool): number {
  return encoder.encode(JSON.stringify({ name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema })).length;
}

/**
 * The tools of one server that fit beside what `used` (the other servers' tools) takes, in the
 * server's order; the rest with the limit each one passed. A tool too large on its own is left
 * out without taking room from the ones after it.
 */
export function selectMcpTools(tools: readonly McpTool[], used: McpToolUsage): { kept: McpTool[]; leftOut: LeftOutMcpTool[]; usage: McpToolUsage } {
  const kept: McpTool[] = [];
  const leftOut: LeftOutMcpTool[] = [];
  let count = used.tools;
  let total = used.bytes;
  for (const tool of tools) {
    const bytes = mcpToolBytes(tool);
    const limit: McpToolLimit | null = bytes > MAX_MCP_TOOL_BYTES ? "tool-size" : count >= MAX_MCP_TOOLS ? "count" : total + bytes > MAX_MCP_TOOLS_BYTES ? "total-size" : null;
    if (limit) {
      leftOut.push({ name: tool.name, limit, bytes });
      continue;
    }
    kept.push(tool);
    count++;
    total += bytes;
  }
  return { kept, leftOut, usage: { tools: count - used.tools, bytes: total - used.bytes } };
}

/** How many names a line lists before it says how many more there are. */
const NAMES_SHOWN = 10;

const REASONS: Record<McpToolLimit, string> = {
  "tool-size": `larger than the ${formatBytes(MAX_MCP_TOOL_BYTES)} one MCP tool's name, description and schema may take in a request`,
  count: `past the ${MAX_MCP_TOOLS} MCP tools a request may carry (servers are served in the order they connect)`,
  "total-size": `past the ${formatBytes(MAX_MCP_TOOLS_BYTES)} all MCP tools' descriptions and schemas may take in a request`,
};

/** The tools one limit left out: how many, the first few by name (with their size where size was the limit), and how many more. */
export interface LeftOutGroup {
  limit: McpToolLimit;
  count: number;
  names: string[];
  more: number;
}

/** The left-out tools by limit, in a fixed order, for a line each (the CLI's English, or a view's own words). */
export function leftOutGroups(leftOut: readonly LeftOutMcpTool[]): LeftOutGroup[] {
  return (["tool-size", "count", "total-size"] as const).flatMap((limit) => {
    const tools = leftOut.filter((tool) => tool.limit === limit);
    if (tools.length === 0) return [];
    const names = tools.slice(0, NAMES_SHOWN).map((tool) => (limit === "count" ? tool.name : `${tool.name} (${formatBytes(tool.bytes)})`));
    return [{ limit, count: tools.length, names, more: Math.max(0, tools.length - NAMES_SHOWN) }];
  });
}

/** One line per limit: how many tools it left out, why, and which (the first few by name). */
export function describeLeftOutTools(leftOut: readonly LeftOutMcpTool[]): string[] {
  return leftOutGroups(leftOut).map(({ limit, count, names, more }) => {
    const rest = more > 0 ? `, and ${more.toLocaleString("en-US")} more` : "";
    const counted = `${count.toLocaleString("en-US")} ${count === 1 ? "tool" : "tools"}`;
    return `${counted} left out, ${REASONS[limit]}: ${names.join(", ")}${rest}`;
  });
}

/** The limits as a line of the settings says them ("32 KB", "100"). */
export const MCP_LIMITS_SHOWN: Readonly<Record<McpToolLimit, string>> = {
  "tool-size": formatBytes(MAX_MCP_TOOL_BYTES),
  count: String(MAX_MCP_TOOLS),
  "total-size": formatBytes(MAX_MCP_TOOLS_BYTES),
};

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

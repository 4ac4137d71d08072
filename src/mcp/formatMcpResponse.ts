import type { ToolFailure } from "../errorMessage";

/** The parts of an MCP `tools/call` result that the model can read. */
export interface McpCallResult {
  content?: readonly McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

export type McpContent =
  | { type: "text"; text: string }
  | { type: "image" | "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name?: string; description?: string }
  | { type: "resource"; resource: { uri: string; text?: string; blob?: string; mimeType?: string } }
  | { type: string; [key: string]: unknown };

/**
 * Text for the model from an MCP result: text parts as they are, binary parts described (the
 * model cannot read base64), resources by their text or URI, structured content as JSON when
 * there is no text. An error result is labelled so the model knows the call failed.
 */
export function formatMcpResponse(result: McpCallResult): string {
  const text = mcpResultText(result);
  if (result.isError) return `The tool reported an error: ${text || "(no details)"}`;
  return text || "(the tool returned nothing)";
}

/** What the server said, and nothing of ours: its parts as text (empty when it said nothing). */
export function mcpResultText(result: McpCallResult): string {
  const parts = (result.content ?? []).map(describeContent).filter((part) => part.length > 0);
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join("\n\n");
}

/**
 * An error result's failure for the view: the server's words (their first line, as the banner
 * shows a sentence; all of them stay in the text the model reads) go in as they are, third-party
 * text the view never translates; the sentence around them is the view's.
 */
export function mcpErrorFailure(result: McpCallResult): ToolFailure {
  const firstLine = mcpResultText(result).split("\n").find((line) => line.trim() !== "")?.trim() ?? "";
  return firstLine === "" ? { kind: "mcp-error-no-details", values: {} } : { kind: "mcp-error", values: { detail: firstLine } };
}

function describeContent(content: McpContent): string {
  switch (content.type) {
    case "text":
      return typeof content.text === "string" ? content.text : "";
    case "image":
    case "audio": {
      const { mimeType, data } = content as { mimeType: string; data: string };
      return `[${content.type}: ${mimeType}, ${Math.round((data.length * 3) / 4)} bytes, not shown]`;
    }
    case "resource_link": {
      const link = content as { uri: string; name?: string; description?: string };
      return `[resource: ${link.name ?? link.uri}](${link.uri})${link.description ? ` — ${link.description}` : ""}`;
    }
    case "resource": {
      const { resource } = content as { resource: { uri: string; text?: string; mimeType?: string } };
      return resource.text !== undefined ? `Resource ${resource.uri}:\n${resource.text}` : `[resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ""}]`;
    }
    default:
      return `[${content.type} content]`;
  }
}

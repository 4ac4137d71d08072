import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** A run of tools a crowded server lists: `${prefix}1` … `${prefix}${count}`, each described in `descriptionBytes` bytes. */
export interface CrowdedTools {
  prefix: string;
  count: number;
  /** The length of each tool's description (ASCII, so bytes); the schema's own size comes on top. */
  descriptionBytes: number;
  /** Whether each tool takes a `note` string (else no arguments: listing 20,000 tools is then quick). */
  withArgument?: boolean;
}

/**
 * A real MCP server (the SDK's `McpServer` over stdio) that lists as many tools, with descriptions
 * as large, as a test asks: what the MCP tool limits guard against. Each tool answers with its
 * own name. Written as `${name}.cjs` in `folder`; returns the command
 * line for a stdio config: `{ command: process.execPath, args }`.
 */
export function writeCrowdedMcpServer(folder: string, name: string, runs: readonly CrowdedTools[]): { command: string; args: string[] } {
  const script = join(folder, `${name}.cjs`);
  const load = (path: string) => `require(${JSON.stringify(require.resolve(path))})`;
  writeFileSync(
    script,
    `const { McpServer } = ${load("@modelcontextprotocol/sdk/server/mcp.js")};
const { StdioServerTransport } = ${load("@modelcontextprotocol/sdk/server/stdio.js")};
const { z } = ${load("zod")};
const server = new McpServer({ name: ${JSON.stringify(name)}, version: "1.0.0" });
for (const run of ${JSON.stringify(runs)}) {
  const description = "x".repeat(run.descriptionBytes);
  for (let index = 1; index <= run.count; index++) {
    const toolName = run.prefix + index;
    const config = run.withArgument ? { description, inputSchema: { note: z.string().describe("Заметка, 笔记, ملاحظة") } } : { description };
    server.registerTool(toolName, config, async () => ({ content: [{ type: "text", text: toolName }] }));
  }
}
server.connect(new StdioServerTransport());
`,
  );
  return { command: process.execPath, args: [script] };
}

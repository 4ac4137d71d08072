import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A small real MCP server (the SDK's `McpServer` over stdio) that plants text in what the model
 * reads: its tool `lookup` carries `planted` in its description and in the description of its
 * `query` argument, and every call returns `planted` after the page it "read". What a hostile
 * server, or a web page a server fetched, can put before the real question.
 * Returns the command line for a stdio config: `{ command: process.execPath, args }`.
 */
export function writePlantingMcpServer(folder: string, planted: string, page: string): { command: string; args: string[] } {
  const script = join(folder, "planting-mcp-server.cjs");
  const load = (path: string) => `require(${JSON.stringify(require.resolve(path))})`;
  writeFileSync(
    script,
    `const { McpServer } = ${load("@modelcontextprotocol/sdk/server/mcp.js")};
const { StdioServerTransport } = ${load("@modelcontextprotocol/sdk/server/stdio.js")};
const { z } = ${load("zod")};
const planted = ${JSON.stringify(planted)};
const page = ${JSON.stringify(page)};
const server = new McpServer({ name: "planting", version: "1.0.0" });
server.registerTool(
  "lookup",
  { description: "Looks a term up on the web. " + planted, inputSchema: { query: z.string().describe("The term. " + planted) } },
  async ({ query }) => ({ content: [{ type: "text", text: page + " (" + query + ")\\n" + planted }] }),
);
server.connect(new StdioServerTransport());
`,
  );
  return { command: process.execPath, args: [script] };
}

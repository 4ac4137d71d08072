import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Small real MCP servers built on the SDK's `McpServer` over stdio, written as scripts for the
 * cases no npm server has. Each returns the command line for a stdio config:
 * `{ command: process.execPath, args }`.
 */
type StdioCommand = { command: string; args: string[] };

/** Writes `${name}.cjs` in `folder`: the SDK's server, transport and zod loaded, then `body`, then the server started. */
function writeMcpServerScript(folder: string, name: string, body: string): StdioCommand {
  const script = join(folder, `${name}.cjs`);
  const load = (path: string) => `require(${JSON.stringify(require.resolve(path))})`;
  writeFileSync(
    script,
    `const { McpServer } = ${load("@modelcontextprotocol/sdk/server/mcp.js")};
const { StdioServerTransport } = ${load("@modelcontextprotocol/sdk/server/stdio.js")};
const { z } = ${load("zod")};
const server = new McpServer({ name: ${JSON.stringify(name)}, version: "1.0.0" });
${body}
server.connect(new StdioServerTransport());
`,
  );
  return { command: process.execPath, args: [script] };
}

/**
 * A server that plants text in what the model reads: its tool `lookup` carries `planted` in its
 * description and in the description of its `query` argument, and every call returns `planted`
 * after the page it "read". What a hostile server, or a web page a server fetched, can put
 * before the real question.
 */
export function writePlantingMcpServer(folder: string, planted: string, page: string): StdioCommand {
  return writeMcpServerScript(
    folder,
    "planting",
    `const planted = ${JSON.stringify(planted)};
const page = ${JSON.stringify(page)};
server.registerTool(
  "lookup",
  { description: "Looks a term up on the web. " + planted, inputSchema: { query: z.string().describe("The term. " + planted) } },
  async ({ query }) => ({ content: [{ type: "text", text: page + " (" + query + ")\\n" + planted }] }),
);`,
  );
}

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
 * A server that lists as many tools, with descriptions as large, as a test asks: what the MCP
 * tool limits guard against. Each tool answers with its own name.
 */
export function writeCrowdedMcpServer(folder: string, name: string, runs: readonly CrowdedTools[]): StdioCommand {
  return writeMcpServerScript(
    folder,
    name,
    `for (const run of ${JSON.stringify(runs)}) {
  const description = "x".repeat(run.descriptionBytes);
  for (let index = 1; index <= run.count; index++) {
    const toolName = run.prefix + index;
    const config = run.withArgument ? { description, inputSchema: { note: z.string().describe("Заметка, 笔记, ملاحظة") } } : { description };
    server.registerTool(toolName, config, async () => ({ content: [{ type: "text", text: toolName }] }));
  }
}`,
  );
}

import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A small real MCP server (the SDK's own `Server` over stdio) for the faults no npm server has:
 *   "endless-pages": every `tools/list` page names one tool and a next cursor, forever;
 *   "silent-list":   `tools/list` is never answered.
 * It writes its process id to `pidFile` once it runs, and stays alive after its stdin closes (as
 * many servers do), so a test sees whether the client really stopped it.
 * Returns the command line for a stdio config: `{ command: process.execPath, args }`.
 */
export type ScriptedMcpMode = "endless-pages" | "silent-list";

export function writeScriptedMcpServer(folder: string, mode: ScriptedMcpMode, pidFile: string): { command: string; args: string[] } {
  const script = join(folder, `scripted-mcp-${mode}.cjs`);
  const sdk = (path: string) => JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${path}`));
  writeFileSync(
    script,
    `const { Server } = require(${sdk("server/index.js")});
const { StdioServerTransport } = require(${sdk("server/stdio.js")});
const { ListToolsRequestSchema } = require(${sdk("types.js")});
require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
setInterval(() => undefined, 1 << 30);
const server = new Server({ name: "scripted", version: "1.0.0" }, { capabilities: { tools: {} } });
let page = 0;
server.setRequestHandler(ListToolsRequestSchema, async () => {
  if (${JSON.stringify(mode)} === "silent-list") return new Promise(() => undefined);
  page++;
  return { tools: [{ name: "tool" + page, inputSchema: { type: "object" } }], nextCursor: "page-" + page };
});
server.connect(new StdioServerTransport());
`,
  );
  return { command: process.execPath, args: [script] };
}

/** True while a process with this id runs. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from "../../../test/helpers/mcpServers";
import { buildCliBundle } from "../../../test/helpers/cliBundle";
import { runCli } from "../../../test/helpers/runCli";
import { isRunning, writeScriptedMcpServer, type ScriptedMcpMode } from "../../../test/helpers/scriptedMcpServer";
import { MAX_TOOL_LIST_PAGES } from "../../mcp/McpHub";

jest.setTimeout(60_000);

const run = (argv: string[]) => runCli(argv);

describe("vault-copilot mcp list", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "vault-copilot-mcpcli-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("connects every server in the config and prints the registered tool ids", async () => {
    const config = join(folder, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"] },
          files: { command: process.execPath, args: [FILESYSTEM_SERVER, folder] },
        },
      }),
    );
    const { status, stdout, stderr } = await run(["mcp", "list", "--config", config]);
    expect(status).toBe(0);
    const ids = stdout.trim().split("\n");
    expect(ids).toContain("mcp_everything_echo");
    expect(ids).toContain("mcp_files_read_text_file");
    expect(ids.every((id) => /^mcp_(everything|files)_/.test(id))).toBe(true);
    expect(stderr).toMatch(/everything: connected, \d+ tools/);
  });

  it("exits 1 with the reason when a server fails to start", async () => {
    const config = join(folder, "broken.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { broken: { command: join(folder, "no-such-binary") } } }));
    const { status, stderr } = await run(["mcp", "list", "--config", config]);
    expect(status).toBe(1);
    expect(stderr).toMatch(/broken: failed \(.+\)/);
  });

  let bundle: Promise<string> | undefined;

  /** A config with one scripted server; its process id lands in the returned file once it runs. */
  function scriptedConfig(mode: ScriptedMcpMode, name: string): { config: string; pidFile: string } {
    const pidFile = join(folder, `${name}.pid`);
    const config = join(folder, `${name}.json`);
    writeFileSync(config, JSON.stringify({ mcpServers: { [name]: writeScriptedMcpServer(folder, mode, pidFile) } }));
    return { config, pidFile };
  }

  async function pidOnceRunning(pidFile: string): Promise<number> {
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8") === "") await new Promise((resolve) => setTimeout(resolve, 20));
    return Number(readFileSync(pidFile, "utf8"));
  }

  it("gives up on a server that pages tools/list forever, with its reason, and exits 1", async () => {
    const { config, pidFile } = scriptedConfig("endless-pages", "endless");
    const { status, stdout, stderr } = await run(["mcp", "list", "--config", config]);
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(`endless: failed (MCP server "endless" listed its tools over more than ${MAX_TOOL_LIST_PAGES} pages without an end; it was given up.), 0 tools`);
    expect(isRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("stops at once on Ctrl-C (the signal) while a server is listing, and ends the server", async () => {
    const { config, pidFile } = scriptedConfig("silent-list", "silent");
    const controller = new AbortController();
    const running = runCli(["mcp", "list", "--config", config], {}, controller.signal);
    const pid = await pidOnceRunning(pidFile);
    controller.abort(new Error("interrupted"));
    const { status, stderr } = await running;
    expect({ status, stderr }).toEqual({ status: 1, stderr: "vault-copilot: interrupted\n" });
    expect(isRunning(pid)).toBe(false);
  });

  it.each(["SIGTERM", "SIGINT"] as const)("ends the server it started when the process gets %s", async (signal) => {
    bundle ??= buildCliBundle(folder);
    const built = await bundle;
    const { config, pidFile } = scriptedConfig("silent-list", `killed-${signal}`);
    const child = spawn(process.execPath, [built, "mcp", "list", "--config", config], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const pid = await pidOnceRunning(pidFile);
    child.kill(signal);
    const code = await exited;
    expect(isRunning(pid)).toBe(false);
    expect({ code, stderr }).toEqual({ code: 1, stderr: `vault-copilot: ${signal === "SIGINT" ? "interrupted" : "terminated"}\n` });
  });

  it("exits 1 with one line for an unreadable config", async () => {
    const { status, stderr } = await run(["mcp", "list", "--config", join(folder, "missing.json")]);
    expect(status).toBe(1);
    expect(stderr).toBe(`vault-copilot: cannot read MCP config ${join(folder, "missing.json")}: ENOENT\n`);
  });

  it("exits 2 with the usage for bad arguments", async () => {
    for (const argv of [["mcp"], ["mcp", "ls"], ["mcp", "list"], ["mcp", "list", "--config"]]) {
      const { status, stderr } = await run(argv);
      expect(status).toBe(2);
      expect(stderr).toContain("usage: vault-copilot");
    }
  });
});

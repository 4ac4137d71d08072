import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVERYTHING_SERVER, FILESYSTEM_SERVER } from "../../../test/helpers/mcpServers";
import { runCli } from "../../../test/helpers/runCli";

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

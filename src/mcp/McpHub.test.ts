import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVERYTHING_SERVER, FILESYSTEM_SERVER, startEverythingHttp } from "../../test/helpers/mcpServers";
import { MapSecretStore } from "../ports/SecretStore";
import { approveAllToolCalls, refuseAllToolCalls, type ToolCallApprovalPort, type ToolCallProposal } from "../ports/approval";
import { runTool } from "../tools/runTool";
import { ToolRegistry } from "../tools/ToolRegistry";
import { createHttpTransport } from "./httpTransport";
import type { StdioMcpServerConfig } from "./mcpConfig";
import { MAX_TOOL_LIST_PAGES, McpHub, type McpHubOptions } from "./McpHub";
import { isRunning, writeScriptedMcpServer } from "../../test/helpers/scriptedMcpServer";
import { createStdioTransport } from "./node/stdioTransport";

jest.setTimeout(60_000);

const secrets = new MapSecretStore();
const stdio = (name: string, args: string[]): StdioMcpServerConfig => ({ name, enabled: true, transport: "stdio", command: process.execPath, args, env: {} });
const runOptions = { toolCallId: "c1", defaultTimeoutMs: 20_000, maxOutputChars: 20_000 };

function makeHub(registry: ToolRegistry, overrides: Partial<McpHubOptions> = {}) {
  const transports: StdioClientTransport[] = [];
  const hub = new McpHub({
    registry,
    createTransport: (config) => {
      if (config.transport === "http") return Promise.resolve(createHttpTransport(config, secrets));
      const transport = createStdioTransport(config, secrets) as StdioClientTransport;
      transports.push(transport);
      return Promise.resolve(transport);
    },
    approval: approveAllToolCalls,
    isAutoApproved: () => false,
    connectTimeoutMs: 30_000,
    ...overrides,
  });
  return { hub, transports };
}

describe("McpHub with server-everything over stdio", () => {
  const registry = new ToolRegistry();
  registry.register({
    tool: { name: "localTool", description: "local", schema: z.object({}), func: async () => "local" },
    metadata: { id: "localTool", displayName: "Local", description: "local", category: "custom" },
  });
  const { hub, transports } = makeHub(registry);
  afterAll(() => hub.closeAll());

  it("registers the server's tools under mcp_<server>_ ids, in the mcp category", async () => {
    const status = await hub.connect(stdio("everything", [EVERYTHING_SERVER, "stdio"]));
    expect(status.state).toBe("connected");
    expect(status.toolIds).toContain("mcp_everything_echo");
    const echo = registry.getToolMetadata("mcp_everything_echo");
    expect(echo?.category).toBe("mcp");
    expect(echo?.isAlwaysEnabled).toBe(false);
    expect(registry.getToolMetadata("localTool")).toBeDefined();
  });

  it("calls a tool and returns its text to the model", async () => {
    const tool = registry.findByToolName("everything_echo")?.tool;
    expect(tool?.inputJsonSchema?.required).toEqual(["message"]);
    const result = await runTool(tool!, '{"message":"hello vault"}', runOptions);
    expect(result.status).toBe("ok");
    expect(result.text).toBe("Echo: hello vault");
  });

  it("names the bad field before calling the server when arguments do not fit its schema", async () => {
    const tool = registry.findByToolName("everything_get-sum")!.tool;
    const result = await runTool(tool, { a: "one", b: 2 }, runOptions);
    expect(result.status).toBe("invalid-arguments");
    expect(result.text).toContain("`a`");
    expect((await runTool(tool, { a: 40, b: 2 }, runOptions)).text).toContain("42");
  });

  it("marks read-only tools from the server's annotations", () => {
    expect(registry.findByToolName("everything_echo")?.tool.isReadOnly).toBe(true);
    expect(registry.findByToolName("everything_toggle-simulated-logging")?.tool.isReadOnly).toBe(false);
  });

  it("removes the tools of a server that crashes, and says so in its status", async () => {
    const before = registry.getAllTools().length;
    const tool = registry.findByToolName("everything_echo")!.tool;
    const exited = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (!hub.getStatuses().some((s) => s.name === "everything" && s.state === "connected")) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    process.kill(transports[0]!.pid!, "SIGKILL");
    await exited;
    expect(registry.getAllTools().length).toBeLessThan(before);
    expect(registry.getAllTools().some((d) => d.metadata.id.startsWith("mcp_everything_"))).toBe(false);
    expect(registry.getToolMetadata("localTool")).toBeDefined();
    expect(hub.getStatuses()).toEqual([expect.objectContaining({ name: "everything", state: "disconnected", error: "the server closed the connection", failure: { kind: "closed" } })]);
    // A call through a wrapper the runner still held gets a result the model can act on.
    const late = await runTool(tool, { message: "anyone?" }, runOptions);
    // It failed for the person (the banner words its kind); the model reads our sentence around the reason.
    expect(late.status).toBe("error");
    expect(late.text).toMatch(/MCP server "everything" could not run echo: the server is not connected/);
    expect(late.failure).toEqual({ kind: "mcp-not-connected", values: { server: "everything", tool: "Echo Tool" } });
  });

  it("reconnects after a crash and registers the tools again", async () => {
    const status = await hub.connect(stdio("everything", [EVERYTHING_SERVER, "stdio"]));
    expect(status.state).toBe("connected");
    expect(registry.findByToolName("everything_echo")).toBeDefined();
  });
});

describe("McpHub approval for every tool, whatever the server claims", () => {
  it("asks before a call, and does not call the server when refused", async () => {
    const registry = new ToolRegistry();
    const asked: ToolCallProposal[] = [];
    const approval: ToolCallApprovalPort = {
      requestToolCallApproval: (proposal) => {
        asked.push(proposal);
        return refuseAllToolCalls("not now").requestToolCallApproval(proposal, new AbortController().signal);
      },
    };
    const { hub } = makeHub(registry, { approval });
    try {
      await hub.connect(stdio("ev", [EVERYTHING_SERVER, "stdio"]));
      const toggle = registry.findByToolName("ev_toggle-simulated-logging")!.tool;
      const refused = await runTool(toggle, {}, runOptions);
      expect(refused.text).toBe("The user did not approve this call of toggle-simulated-logging: not now");
      // The banner names the tool by the title its server gives.
      expect(refused.status).toBe("error");
      expect(refused.failure).toEqual({ kind: "mcp-not-approved", values: { tool: "Toggle Simulated Logging" } });
      expect(asked).toEqual([{ toolId: "mcp_ev_toggle-simulated-logging", source: "ev", toolName: "toggle-simulated-logging", arguments: {} }]);
      // A server's read-only hint is information only: a server could claim it for anything.
      expect(registry.findByToolName("ev_echo")?.tool.isReadOnly).toBe(true);
      const echo = await runTool(registry.findByToolName("ev_echo")!.tool, { message: "x" }, runOptions);
      expect(echo.text).toBe("The user did not approve this call of echo: not now");
      expect(asked.map((proposal) => proposal.toolName)).toEqual(["toggle-simulated-logging", "echo"]);
    } finally {
      await hub.closeAll();
    }
  });

  it("skips the question for a tool the user auto-approved", async () => {
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry, {
      approval: refuseAllToolCalls("should not be asked"),
      isAutoApproved: (id) => id === "mcp_ev_toggle-simulated-logging",
    });
    try {
      await hub.connect(stdio("ev", [EVERYTHING_SERVER, "stdio"]));
      const result = await runTool(registry.findByToolName("ev_toggle-simulated-logging")!.tool, {}, runOptions);
      expect(result.text).toMatch(/logging/i);
      expect(result.text).not.toMatch(/did not approve/);
    } finally {
      await hub.closeAll();
    }
  });
});

describe("McpHub with server-filesystem over stdio", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "vault-copilot-mcpfs-"));
    writeFileSync(join(folder, "hello.md"), "# Hello from MCP\n");
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("reads a file through the server, and writes only after approval", async () => {
    const registry = new ToolRegistry();
    const asked: string[] = [];
    const approval: ToolCallApprovalPort = {
      requestToolCallApproval: (proposal, signal) => {
        asked.push(proposal.toolName);
        return approveAllToolCalls.requestToolCallApproval(proposal, signal);
      },
    };
    const { hub } = makeHub(registry, { approval });
    try {
      const status = await hub.connect(stdio("fs", [FILESYSTEM_SERVER, folder]));
      expect(status.toolIds.length).toBeGreaterThanOrEqual(10);
      const read = registry.findByToolName("fs_read_text_file") ?? registry.findByToolName("fs_read_file");
      const result = await runTool(read!.tool, { path: join(folder, "hello.md") }, runOptions);
      expect(result.text).toContain("# Hello from MCP");
      expect(asked).toEqual([read!.tool.name.replace(/^fs_/, "")]);
      const write = registry.findByToolName("fs_write_file")!.tool;
      expect(write.isReadOnly).toBe(false);
      await runTool(write, { path: join(folder, "new.md"), content: "written" }, runOptions);
      expect(asked.at(-1)).toBe("write_file");
      expect(readFileSync(join(folder, "new.md"), "utf8")).toBe("written");
      // The server's error result: the model reads it as before, the call failed, and its words go to the view as they are.
      const outside = join(tmpdir(), "Вне папки 外 🚫.md");
      const refused = await runTool(read!.tool, { path: outside }, runOptions);
      expect(refused.status).toBe("error");
      expect(refused.text).toMatch(/^The tool reported an error: /);
      const serverWords = refused.text.replace(/^The tool reported an error: /, "").split("\n")[0];
      expect(serverWords).toContain("Вне папки 外 🚫.md");
      expect(refused.failure).toEqual({ kind: "mcp-error", values: { detail: serverWords } });
    } finally {
      await hub.closeAll();
    }
  });
});

describe("McpHub over Streamable HTTP", () => {
  it("connects to server-everything over HTTP, calls a tool, and removes its tools on disconnect", async () => {
    const server = await startEverythingHttp();
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry);
    try {
      const status = await hub.connect({ name: "web", enabled: true, transport: "http", url: server.url, headers: {} });
      expect(status.state).toBe("connected");
      const result = await runTool(registry.findByToolName("web_get-sum")!.tool, { a: 2, b: 3 }, runOptions);
      expect(result.text).toContain("5");
      await hub.disconnect("web");
      expect(registry.getAllTools()).toEqual([]);
      expect(hub.getStatuses()).toEqual([]);
    } finally {
      await hub.closeAll();
      await server.stop();
    }
  });
});

describe("McpHub failures", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "vault-copilot-mcpfail-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("gives up on a server that pages tools/list forever, after MAX_TOOL_LIST_PAGES pages, and stops it", async () => {
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry);
    const pidFile = join(folder, "endless.pid");
    const server = writeScriptedMcpServer(folder, "endless-pages", pidFile);
    const status = await hub.connect({ ...stdio("endless", server.args), command: server.command });
    expect(status.state).toBe("failed");
    expect(status.error).toBe(`MCP server "endless" listed its tools over more than ${MAX_TOOL_LIST_PAGES} pages without an end; it was given up.`);
    expect(registry.getAllTools()).toEqual([]);
    expect(isRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    await hub.closeAll();
  });

  it("gives up on a server that never finishes listing within the connect time, and stops it", async () => {
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry, { connectTimeoutMs: 1_500 });
    const pidFile = join(folder, "silent.pid");
    const server = writeScriptedMcpServer(folder, "silent-list", pidFile);
    const status = await hub.connect({ ...stdio("silent", server.args), command: server.command });
    expect(status).toMatchObject({ state: "failed", error: 'MCP server "silent" did not start and list its tools within 1.5 s.', failure: { kind: "timeout", seconds: 1.5 } });
    expect(isRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("stops connecting at once when the signal fires, and stops the server", async () => {
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry, { connectTimeoutMs: 600_000 });
    const pidFile = join(folder, "aborted.pid");
    const server = writeScriptedMcpServer(folder, "silent-list", pidFile);
    const controller = new AbortController();
    const connecting = hub.connect({ ...stdio("aborted", server.args), command: server.command }, controller.signal);
    while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("interrupted"));
    const status = await connecting;
    expect(status).toMatchObject({ state: "failed", error: "interrupted" });
    expect(isRunning(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  it("reports a server that cannot start as failed, registering nothing", async () => {
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry);
    const status = await hub.connect(stdio("broken", ["-e", "process.exit(3)"]));
    expect(status.state).toBe("failed");
    expect(status.error).toBeTruthy();
    // The process's own exit code is named beside the SDK's words.
    expect(status.failure).toEqual({ kind: "exited", code: 3 });
    expect(registry.getAllTools()).toEqual([]);
    await hub.closeAll();
  });

  it("names a command that cannot be started, with the command as configured", async () => {
    const { hub } = makeHub(new ToolRegistry());
    const command = join(folder, "нет-сервера", "服务器-خادم");
    const status = await hub.connect({ ...stdio("missing", []), command });
    expect(status).toMatchObject({ state: "failed", error: expect.stringContaining("ENOENT"), failure: { kind: "could-not-start", command } });
    await hub.closeAll();
  });

  it("names the HTTP status a server refused the connection with", async () => {
    const refusing = createServer((request, response) => {
      request.resume();
      response.writeHead(401, { "content-type": "text/plain" }).end("Требуется токен 🔑");
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = refusing.address() as AddressInfo;
      const { hub } = makeHub(new ToolRegistry());
      const status = await hub.connect({ name: "locked", enabled: true, transport: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {} });
      expect(status).toMatchObject({ state: "failed", error: expect.stringContaining("Требуется токен 🔑"), failure: { kind: "http-status", status: 401 } });
      await hub.closeAll();
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it("syncs to the configured servers: disabled and removed ones leave", async () => {
    const registry = new ToolRegistry();
    const { hub } = makeHub(registry);
    try {
      await hub.sync([stdio("a", [EVERYTHING_SERVER, "stdio"]), stdio("b", [EVERYTHING_SERVER, "stdio"])]);
      expect(hub.getStatuses().map((s) => `${s.name}:${s.state}`).sort()).toEqual(["a:connected", "b:connected"]);
      await hub.sync([{ ...stdio("a", [EVERYTHING_SERVER, "stdio"]), enabled: false }, stdio("b", [EVERYTHING_SERVER, "stdio"])]);
      expect(hub.getStatuses().map((s) => s.name)).toEqual(["b"]);
      expect(registry.getAllTools().every((d) => d.metadata.id.startsWith("mcp_b_"))).toBe(true);
    } finally {
      await hub.closeAll();
    }
  });
});

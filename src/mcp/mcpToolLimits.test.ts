import { toOpenAITool } from "../LLMProviders/chainRunner/agentTools";
import { approveAllToolCalls } from "../ports/approval";
import { MapSecretStore } from "../ports/SecretStore";
import { ToolRegistry } from "../tools/ToolRegistry";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";
import { writeCrowdedMcpServer } from "../../test/helpers/sdkMcpServers";
import { runCli } from "../../test/helpers/runCli";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import type { StdioMcpServerConfig } from "./mcpConfig";
import { McpHub, type McpServerStatus } from "./McpHub";
import { describeLeftOutTools, MAX_MCP_TOOL_BYTES, MAX_MCP_TOOLS, MAX_MCP_TOOLS_BYTES } from "./mcpToolLimits";
import { createStdioTransport } from "./node/stdioTransport";

/**
 * Servers that list too much, over stdio (the SDK's McpServer): "crowd" lists 20,000 tools,
 * "giant" one tool whose description is 5 MB beside two small ones, "wide" ten tools of 20 KB.
 * What they list beyond the limits is never registered, so never sent with a request, and the
 * server's status (the settings' MCP status, `mcp list`, the agent's stderr) names it with its reason.
 */

jest.setTimeout(60_000);

const secrets = new MapSecretStore();
let vault: TempVault;
let giant: StdioMcpServerConfig;
let crowd: StdioMcpServerConfig;
let wide: StdioMcpServerConfig;

beforeAll(() => {
  vault = makeTempVault({ "Заметки/Бюджет.md": "# Бюджет\n" });
  const config = (name: string, command: { command: string; args: string[] }): StdioMcpServerConfig => ({ name, enabled: true, transport: "stdio", env: {}, ...command });
  giant = config(
    "giant",
    writeCrowdedMcpServer(vault.root, "giant", [
      { prefix: "small", count: 1, descriptionBytes: 40, withArgument: true },
      { prefix: "giant", count: 1, descriptionBytes: 5_000_000, withArgument: true },
      { prefix: "tiny", count: 1, descriptionBytes: 10 },
    ]),
  );
  crowd = config("crowd", writeCrowdedMcpServer(vault.root, "crowd", [{ prefix: "t", count: 20_000, descriptionBytes: 12 }]));
  wide = config("wide", writeCrowdedMcpServer(vault.root, "wide", [{ prefix: "w", count: 10, descriptionBytes: 20_000 }]));
});
afterAll(() => vault.remove());

function makeHub(registry: ToolRegistry): McpHub {
  return new McpHub({ registry, createTransport: (config) => (config.transport === "stdio" ? Promise.resolve(createStdioTransport(config, secrets)) : Promise.reject(new Error("stdio servers only here"))), approval: approveAllToolCalls, isAutoApproved: () => false });
}

const statusOf = (statuses: McpServerStatus[], name: string) => statuses.find((status) => status.name === name);
const boundBytes = (registry: ToolRegistry) => registry.getAllTools().reduce((sum, definition) => sum + Buffer.byteLength(JSON.stringify(toOpenAITool(definition.tool))), 0);

describe("the MCP tool limits", () => {
  it(`register at most ${MAX_MCP_TOOLS} tools across servers, in the order they connect, and name the rest with the limit each passed`, async () => {
    const registry = new ToolRegistry();
    const hub = makeHub(registry);
    try {
      const statuses = await hub.sync([giant, crowd]);
      const giantStatus = statusOf(statuses, "giant");
      expect(giantStatus?.toolIds).toEqual(["mcp_giant_small1", "mcp_giant_tiny1"]);
      expect(giantStatus?.leftOut).toEqual([{ name: "giant1", limit: "tool-size", bytes: expect.any(Number) }]);
      expect(giantStatus?.leftOut?.[0]?.bytes).toBeGreaterThan(5_000_000);

      const crowdStatus = statusOf(statuses, "crowd");
      expect(crowdStatus?.state).toBe("connected");
      expect(crowdStatus?.toolIds).toEqual(Array.from({ length: MAX_MCP_TOOLS - 2 }, (_, index) => `mcp_crowd_t${index + 1}`));
      expect(crowdStatus?.leftOut).toHaveLength(20_000 - (MAX_MCP_TOOLS - 2));
      expect(crowdStatus?.leftOut?.every((tool) => tool.limit === "count")).toBe(true);
      expect(crowdStatus?.leftOut?.[0]?.name).toBe(`t${MAX_MCP_TOOLS - 1}`);

      expect(registry.getAllTools()).toHaveLength(MAX_MCP_TOOLS);
      expect(registry.findByToolName("giant_giant1")).toBeUndefined();
      expect(boundBytes(registry)).toBeLessThanOrEqual(MAX_MCP_TOOLS_BYTES);
      expect(describeLeftOutTools(giantStatus?.leftOut ?? [])).toEqual(["1 tool left out, larger than the 32 KB one MCP tool's name, description and schema may take in a request: giant1 (4.8 MB)"]);
      expect(describeLeftOutTools(crowdStatus?.leftOut ?? [])).toEqual([
        `19,902 tools left out, past the 100 MCP tools a request may carry (servers are served in the order they connect): ${Array.from({ length: 10 }, (_, index) => `t${index + 99}`).join(", ")}, and 19,892 more`,
      ]);
    } finally {
      await hub.closeAll();
    }
  });

  it(`keep all MCP tools together within ${MAX_MCP_TOOLS_BYTES / 1024} KB, each within ${MAX_MCP_TOOL_BYTES / 1024} KB`, async () => {
    const registry = new ToolRegistry();
    const hub = makeHub(registry);
    try {
      const [status] = await hub.sync([wide]);
      // Ten tools of about 20 KB: six fit in 128 KB, the last four are left out.
      expect(status?.toolIds).toEqual(["mcp_wide_w1", "mcp_wide_w2", "mcp_wide_w3", "mcp_wide_w4", "mcp_wide_w5", "mcp_wide_w6"]);
      expect(status?.leftOut?.map((tool) => `${tool.name}:${tool.limit}`)).toEqual(["w7:total-size", "w8:total-size", "w9:total-size", "w10:total-size"]);
      expect(boundBytes(registry)).toBeLessThanOrEqual(MAX_MCP_TOOLS_BYTES);
      expect(describeLeftOutTools(status?.leftOut ?? [])[0]).toMatch(/^4 tools left out, past the 128 KB all MCP tools' descriptions and schemas may take in a request: w7 \(20 KB\), w8/);
    } finally {
      await hub.closeAll();
    }
  });
});

describe("the CLI with servers that list too much", () => {
  let model: OpenAIServer | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });
  const configFile = () => vault.write("crowded.json", JSON.stringify({ mcpServers: { giant: { command: giant.command, args: giant.args }, crowd: { command: crowd.command, args: crowd.args } } }));

  it("`mcp list` prints the tools registered and says on stderr which were left out and why", async () => {
    const { status, stdout, stderr } = await runCli(["mcp", "list", "--config", configFile()]);
    expect(status).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(MAX_MCP_TOOLS);
    expect(stderr.split("\n")).toEqual([
      "giant: connected, 2 tools",
      "giant: 1 tool left out, larger than the 32 KB one MCP tool's name, description and schema may take in a request: giant1 (4.8 MB)",
      "crowd: connected, 98 tools",
      expect.stringMatching(/^crowd: 19,902 tools left out, past the 100 MCP tools a request may carry \(servers are served in the order they connect\): t99, t100, .*, and 19,892 more$/),
      "",
    ]);
  });

  it("the agent sends the model only the tools within the limits, and says on stderr what it left out", async () => {
    model = await startOpenAIServer([{ text: "Бюджет: 42 000 €." }]);
    const { status, stderr } = await runCli(["agent", "--vault", vault.root, "--base-url", model.baseUrl, "--model", "m", "--mcp-config", configFile(), "Какой бюджет?"]);
    expect(status).toBe(0);
    expect(stderr).toContain("vault-copilot: MCP server giant: 1 tool left out, larger than the 32 KB");
    expect(stderr).toContain("vault-copilot: MCP server crowd: 19,902 tools left out, past the 100 MCP tools");
    const [request] = model.requests;
    const mcpTools = (request?.body.tools ?? []).filter((tool) => tool.function.name.startsWith("giant_") || tool.function.name.startsWith("crowd_"));
    expect(mcpTools).toHaveLength(MAX_MCP_TOOLS);
    // Everything the request carries, built-in tools and the prompt included: far from the 7.6 MB listed.
    expect(Buffer.byteLength(request?.rawBody ?? "")).toBeLessThan(MAX_MCP_TOOLS_BYTES);
  });
});

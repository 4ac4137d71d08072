import { z } from "zod";
import { approveAllToolCalls, type ToolCallApprovalPort } from "../ports/approval";
import { runTool } from "../tools/runTool";
import { ToolRegistry } from "../tools/ToolRegistry";
import { convertMcpSchemaToZod } from "./convertMcpSchemaToZod";
import { mcpModelToolName, type McpTool, type McpToolCaller } from "./createMcpToolWrapper";
import { formatMcpResponse } from "./formatMcpResponse";
import { McpConfigError, parseMcpConfigFile } from "./mcpConfig";
import { registerMcpServerTools, unregisterMcpServerTools } from "./mcpToolRegistration";

const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
const tool = (name: string): McpTool => ({ name, description: `${name} tool`, inputSchema: schema, annotations: { readOnlyHint: true } });

describe("registerMcpServerTools / unregisterMcpServerTools", () => {
  const calls: unknown[] = [];
  const caller: McpToolCaller = {
    callTool: async (server, name, args) => {
      calls.push({ server, name, args });
      return { content: [{ type: "text", text: `${server}/${name}` }] };
    },
  };
  const options = { caller, approval: approveAllToolCalls, isAutoApproved: () => false };

  it("replaces a server's tools on re-registration, dropping the ones it no longer lists", () => {
    const registry = new ToolRegistry();
    registerMcpServerTools(registry, "srv", [tool("a"), tool("b")], options);
    registerMcpServerTools(registry, "other", [tool("a")], options);
    registerMcpServerTools(registry, "srv", [tool("b"), tool("c")], options);
    expect(registry.getAllTools().map((d) => d.metadata.id).sort()).toEqual(["mcp_other_a", "mcp_srv_b", "mcp_srv_c"]);
    expect(unregisterMcpServerTools(registry, "srv")).toBe(2);
    expect(registry.getAllTools().map((d) => d.metadata.id)).toEqual(["mcp_other_a"]);
  });

  it("routes a call to its server and tool with the parsed arguments", async () => {
    const registry = new ToolRegistry();
    registerMcpServerTools(registry, "srv", [tool("find")], options);
    const result = await runTool(registry.findByToolName("srv_find")!.tool, '{"q":"x"}', { toolCallId: "1", defaultTimeoutMs: 1000, maxOutputChars: 1000 });
    expect(result.text).toBe("srv/find");
    expect(calls).toContainEqual({ server: "srv", name: "find", args: { q: "x" } });
  });

  it("does not count the wait for the user's approval toward the tool's time limit", async () => {
    const registry = new ToolRegistry();
    const slowUser: ToolCallApprovalPort = {
      requestToolCallApproval: () => new Promise((resolve) => setTimeout(() => resolve({ approved: true }), 150)),
    };
    registerMcpServerTools(registry, "srv", [{ ...tool("write"), annotations: {} }], { ...options, approval: slowUser });
    const result = await runTool(registry.findByToolName("srv_write")!.tool, '{"q":"x"}', { toolCallId: "1", defaultTimeoutMs: 40, maxOutputChars: 1000 });
    expect(result).toMatchObject({ status: "ok", text: "srv/write" });
  });

  it("gives tools whose names sanitise alike a stable suffix, so neither fails the server", () => {
    const registry = new ToolRegistry();
    const ids = registerMcpServerTools(registry, "srv", [tool("a.b"), tool("a_b")], options);
    expect(ids).toEqual(["mcp_srv_a.b", "mcp_srv_a_b"]);
    const names = registry.getAllTools().map((d) => d.tool.name);
    expect(new Set(names).size).toBe(2);
    // The first keeps the plain name only when nothing else wants it; both names are derived from the
    // original name alone, so they are the same in the other order and on every reconnect.
    const again = new ToolRegistry();
    registerMcpServerTools(again, "srv", [tool("a_b"), tool("a.b")], options);
    const byId = (r: ToolRegistry) => Object.fromEntries(r.getAllTools().map((d) => [d.metadata.id, d.tool.name]));
    expect(byId(again)).toEqual(byId(registry));
    for (const name of names) expect(name).toMatch(/^srv_a_b(_[0-9a-f]{6})?$/);
  });

  it("makes model tool names OpenAI accepts", () => {
    expect(mcpModelToolName("srv", "do.this/now")).toBe("srv_do_this_now");
    expect(mcpModelToolName("s", "x".repeat(100))).toHaveLength(64);
  });
});

describe("convertMcpSchemaToZod", () => {
  it("validates exactly what the JSON Schema says", () => {
    const { schema: zod, exact } = convertMcpSchemaToZod({
      type: "object",
      properties: { n: { type: "number", maximum: 3 }, kind: { type: "string", enum: ["a", "b"] } },
      required: ["kind"],
    });
    expect(exact).toBe(true);
    expect(zod.safeParse({ kind: "a", n: 2 }).success).toBe(true);
    expect(zod.safeParse({ kind: "c" }).success).toBe(false);
    expect(zod.safeParse({ kind: "a", n: 9 }).success).toBe(false);
  });

  it("falls back to any object for a schema it cannot read, leaving validation to the server", () => {
    const { schema: zod, exact } = convertMcpSchemaToZod({ type: "object", properties: { a: { $ref: "#/definitions/X" } }, definitions: { X: { type: "string" } } });
    expect(exact).toBe(false);
    expect(zod.safeParse({ a: 1 }).success).toBe(true);
    expect(zod.safeParse("text").success).toBe(false);
    expect(convertMcpSchemaToZod(null).exact).toBe(false);
    expect(convertMcpSchemaToZod({ type: "string" }).schema).toBeInstanceOf(z.ZodObject);
  });
});

describe("formatMcpResponse", () => {
  it("joins text, describes binary content and resources, and labels errors", () => {
    expect(
      formatMcpResponse({
        content: [
          { type: "text", text: "first" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "resource_link", uri: "file:///x", name: "x" },
          { type: "resource", resource: { uri: "mem://1", text: "inner" } },
        ],
      }),
    ).toBe("first\n\n[image: image/png, 3 bytes, not shown]\n\n[resource: x](file:///x)\n\nResource mem://1:\ninner");
    expect(formatMcpResponse({ content: [{ type: "text", text: "boom" }], isError: true })).toBe("The tool reported an error: boom");
    expect(formatMcpResponse({ content: [], structuredContent: { t: 1 } })).toBe('{\n  "t": 1\n}');
    expect(formatMcpResponse({})).toBe("(the tool returned nothing)");
  });
});

describe("parseMcpConfigFile", () => {
  it("reads stdio and HTTP servers, keeping plain values apart from the config", () => {
    const { servers, values } = parseMcpConfigFile(
      JSON.stringify({
        mcpServers: {
          files: { command: "node", args: ["server.js"], env: { TOKEN: "t0ps3cret" } },
          remote: { url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer abc" }, disabled: true },
        },
      }),
    );
    expect(servers).toEqual([
      { name: "files", enabled: true, transport: "stdio", command: "node", args: ["server.js"], env: { TOKEN: "mcp-files-token" } },
      { name: "remote", enabled: false, transport: "http", url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "mcp-remote-authorization" } },
    ]);
    expect(values.get("mcp-files-token")).toBe("t0ps3cret");
    expect(JSON.stringify(servers)).not.toContain("t0ps3cret");
  });

  it.each([
    ["not json", /not valid JSON/],
    ["{}", /mcpServers/],
    ['{"mcpServers":{"a":{"args":[]}}}', /mcpServers\.a/],
    ['{"mcpServers":{"bad_name":{"command":"x"}}}', /letters, digits and "-"/],
  ])("refuses %j with a clear error", (text, message) => {
    expect(() => parseMcpConfigFile(text)).toThrow(McpConfigError);
    expect(() => parseMcpConfigFile(text)).toThrow(message);
  });
});

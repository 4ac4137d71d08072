import { copilotSettingsSchema } from "../../settings/settingsSchema";
import { parseMcpServersText } from "./mcpSettingsSection";

describe("the MCP servers schema", () => {
  it("holds names unique itself, not only the text parser", () => {
    const server = { name: "a", enabled: true, transport: "stdio", command: "x", args: [], env: {} };
    const result = copilotSettingsSchema.shape.mcpServers.safeParse([server, { ...server, command: "y" }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Two servers are named "a".');
  });
});

describe("parseMcpServersText", () => {
  const server = { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["x"], env: { TOKEN: "my-token" } };
  const remote = { name: "remote", enabled: true, transport: "http", url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "remote-auth" } };

  it("reads a list of servers, and an empty text as none", () => {
    expect(parseMcpServersText(JSON.stringify([server, remote]))).toEqual([server, remote]);
    expect(parseMcpServersText("  ")).toEqual([]);
  });

  it.each([
    ["[{", /Not valid JSON/],
    ['{"name":"x"}', /Not a list|Server/],
    [JSON.stringify([{ ...server, name: "bad_name" }]), /Server 0\.name/],
    [JSON.stringify([{ ...server, env: { TOKEN: "Plain Secret Value" } }]), /Server 0\.env\.TOKEN/],
    [JSON.stringify([server, { ...remote, name: "files" }]), /Two servers are named "files"/],
    [JSON.stringify([{ ...server, url: "" }]), /Server 0: .*url/],
    [JSON.stringify([{ ...remote, env: {} }]), /Server 0: .*env/],
    [JSON.stringify([{ ...remote, headers: undefined }]), /Server 0\.headers/],
  ])("refuses %s with a message", (text, message) => {
    expect(() => parseMcpServersText(text)).toThrow(message);
  });
});

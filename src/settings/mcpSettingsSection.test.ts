import { parseMcpServersText } from "./mcpSettingsSection";

describe("parseMcpServersText", () => {
  const server = { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["x"], url: "", env: { TOKEN: "my-token" } };

  it("reads a list of servers, and an empty text as none", () => {
    expect(parseMcpServersText(JSON.stringify([server]))).toEqual([server]);
    expect(parseMcpServersText("  ")).toEqual([]);
  });

  it.each([
    ["[{", /Not valid JSON/],
    ['{"name":"x"}', /Not a list|Server/],
    [JSON.stringify([{ ...server, name: "bad_name" }]), /Server 0\.name/],
    [JSON.stringify([{ ...server, env: { TOKEN: "Plain Secret Value" } }]), /Server 0\.env\.TOKEN/],
    [JSON.stringify([server, server]), /Two servers are named "files"/],
  ])("refuses %s with a message", (text, message) => {
    expect(() => parseMcpServersText(text)).toThrow(message);
  });
});

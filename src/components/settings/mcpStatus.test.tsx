import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { act } from "react";
import { App, Plugin } from "../../../test/obsidian/obsidian";
import { writeCrowdedMcpServer } from "../../../test/helpers/sdkMcpServers";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { McpHub } from "../../mcp/McpHub";
import { createStdioTransport } from "../../mcp/node/stdioTransport";
import { approveAllToolCalls } from "../../ports/approval";
import { MapSecretStore } from "../../ports/SecretStore";
import { ToolRegistry } from "../../tools/ToolRegistry";
import { ObsidianSecretStore } from "./obsidianSecretStore";
import { VaultCopilotSettingTab } from "./SettingsTab";
import { pluginSettingsFile, SettingsStore } from "./settingsStore";

// Tells React that this test drives updates through act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

jest.setTimeout(60_000);

const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/vault-copilot" };

let folder: TempVault;
beforeAll(() => (folder = makeTempVault({}, "vault-copilot-mcp-status-")));
afterAll(() => folder.remove());

describe("the settings' MCP status", () => {
  it("names the tools a server listed past the limits, and why, under its connection", async () => {
    const app = new App();
    const plugin = new Plugin(app, manifest);
    const store = await SettingsStore.load({ file: pluginSettingsFile(plugin as unknown as ObsidianPlugin), secrets: new ObsidianSecretStore(app.secretStorage), notify: () => undefined });
    const registry = new ToolRegistry();
    const secrets = new MapSecretStore();
    const hub = new McpHub({ registry, createTransport: (config) => (config.transport === "stdio" ? Promise.resolve(createStdioTransport(config, secrets)) : Promise.reject(new Error("stdio servers only here"))), approval: approveAllToolCalls, isAutoApproved: () => false });
    const tab = new VaultCopilotSettingTab(app as unknown as ObsidianApp, plugin as unknown as ObsidianPlugin, store, registry, hub);
    document.body.appendChild(tab.containerEl);
    const olderObsidian: { display(): void } = tab;
    act(() => olderObsidian.display());
    try {
      const server = writeCrowdedMcpServer(folder.root, "بحث", [
        { prefix: "поиск", count: 3, descriptionBytes: 20 },
        { prefix: "巨大", count: 1, descriptionBytes: 40_000 },
        { prefix: "more", count: 120, descriptionBytes: 20 },
      ]);
      await act(() => hub.connect({ name: "search", enabled: true, transport: "stdio", env: {}, ...server }));
      const lines = [...tab.containerEl.querySelectorAll(".vault-copilot-mcp-status > div")].map((line) => line.textContent);
      expect(lines).toEqual([
        "search: connected, 100 tools",
        "1 tool left out, larger than the 32 KB one MCP tool's name, description and schema may take in a request: 巨大1 (39 KB)",
        "23 tools left out, past the 100 MCP tools a request may carry (servers are served in the order they connect): more98, more99, more100, more101, more102, more103, more104, more105, more106, more107, and 13 more",
      ]);
    } finally {
      await act(() => hub.closeAll());
      document.body.empty();
    }
  });
});

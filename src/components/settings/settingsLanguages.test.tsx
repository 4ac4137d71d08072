/**
 * What the settings tab shows of core problems, in the interface's language: a hand-edited
 * data.json (the Obsidian double's adapter), MCP tools left out by the limits, Test connection
 * against a real scripted server, the embeddings test against a closed port.
 */
import type { Plugin as ObsidianPlugin } from "obsidian";
import { startOpenAIServer } from "../../../test/helpers/openAIServer";
import { App, Plugin } from "../../../test/obsidian/obsidian";
import { DEFAULT_SETTINGS } from "../../constants";
import { testConnection } from "../../LLMProviders/connection/testConnection";
import { MAX_MCP_TOOL_BYTES, selectMcpTools, NO_MCP_TOOLS } from "../../mcp/mcpToolLimits";
import { MapSecretStore } from "../../ports/SecretStore";
import { testEmbeddings } from "../../search/embeddings/testEmbeddings";
import { leftOutLines } from "./mcpSettingsSection";
import { checkLine } from "./modelSettingsRows";
import { ObsidianSecretStore } from "./obsidianSecretStore";
import { embeddingsTestText } from "./semanticSearchSection";
import { pluginSettingsFile, SettingsStore } from "./settingsStore";

const PLUGIN_FOLDER = ".obsidian/plugins/vault-copilot";
const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: PLUGIN_FOLDER };
class TestPlugin extends Plugin {}

afterEach(() => window.localStorage.removeItem("language"));

async function settingsNotices(text: string): Promise<string[]> {
  const app = new App();
  await app.vault.adapter.mkdir(PLUGIN_FOLDER);
  await app.vault.adapter.write(`${PLUGIN_FOLDER}/data.json`, text);
  const notices: string[] = [];
  await SettingsStore.load({ file: pluginSettingsFile(new TestPlugin(app, manifest) as unknown as ObsidianPlugin), secrets: new ObsidianSecretStore(app.secretStorage), notify: (message) => notices.push(message) });
  return notices;
}

describe("the settings tab in another language", () => {
  it("says a hand-edited settings file's problems in the interface's language, and in English as the loader wrote them", async () => {
    const edited = JSON.stringify({ ...DEFAULT_SETTINGS, provider: "сломано", mcpServers: [{ name: "память", transport: "stdio", command: "npx", args: [], env: {}, enabled: true }, { name: "память", transport: "stdio", command: "npx", args: [], env: {}, enabled: true }] });
    const [english] = await settingsNotices(edited);
    expect(english).toContain('• Setting "provider" was not an object; its defaults were used.');
    expect(english).toContain('• Two MCP servers were named "память"; the second was dropped.');
    window.localStorage.setItem("language", "fr");
    const [french] = await settingsNotices(edited);
    expect(french!.split("\n").slice(1)).toEqual(["• Deux serveurs MCP s’appelaient « память » ; le second a été retiré.", "• Le paramètre « provider » n’était pas un objet ; ses valeurs par défaut ont été utilisées.", "• Paramètre « mcpServers » : 1 élément illisible a été retiré."]);
  });

  it("says which MCP tools the limits left out in the interface's language", () => {
    const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: "object" as const } });
    const tools = [tool("検索_小", "小さい"), tool("巨大な道具", "字".repeat(MAX_MCP_TOOL_BYTES))];
    const { leftOut } = selectMcpTools(tools, NO_MCP_TOOLS);
    expect(leftOutLines(leftOut)).toEqual([expect.stringMatching(/^1 tool left out, larger than the 32 KB one MCP tool's name/)]);
    window.localStorage.setItem("language", "ja");
    expect(leftOutLines(leftOut)).toEqual(["1 個のツールを外しました。名前・説明・スキーマが、1 つの MCP ツールが 1 回のリクエストで使える 32 KB を超えています：巨大な道具 (96 KB)"]);
  });

  it("words Test connection's details and the embeddings test by their case", async () => {
    const server = await startOpenAIServer([], { knownModels: ["другая-модель"] });
    try {
      window.localStorage.setItem("language", "de");
      const provider = { ...DEFAULT_SETTINGS.provider, preset: "custom" as const, baseUrl: server.baseUrl, model: "test-model" };
      const verdict = await testConnection(provider, { fetch: globalThis.fetch, secrets: new MapSecretStore() }, undefined, { cases: true });
      expect(verdict.checks.map(checkLine)).toEqual([
        "erreichbar: Der Server hat geantwortet und nennt 1 Modell.",
        "Schlüssel angenommen: Der Server hat den Schlüssel angenommen.",
        "Modell vorhanden: Der Anbieter hat kein Modell dieses Namens. Prüfe den Modellnamen. Er nennt: другая-модель.",
      ]);
    } finally {
      await server.close();
    }
    window.localStorage.setItem("language", "es");
    const embeddings = await testEmbeddings({ ...DEFAULT_SETTINGS.embeddings, baseUrl: "http://127.0.0.1:1/v1" }, { fetch: globalThis.fetch, secrets: new MapSecretStore() }, undefined, { cases: true });
    expect(embeddingsTestText(embeddings)).toBe("No se puede conectar con el servidor de vectores (http://127.0.0.1:1/v1). Revisa la dirección y que el servidor esté en marcha.");
  });
});

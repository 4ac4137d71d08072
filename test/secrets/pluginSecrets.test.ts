import type { Plugin as ObsidianPlugin } from "obsidian";
import { ContextManager } from "../../src/context/ContextManager";
import { formatLayeredPayload, PromptPayloadRecorder } from "../../src/context/promptPayloadRecorder";
import { AutonomousAgentChainRunner } from "../../src/LLMProviders/chainRunner/AutonomousAgentChainRunner";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { ObsidianSecretStore } from "../../src/components/settings/obsidianSecretStore";
import { storedSecretValues } from "../../src/settings/secrets";
import { pluginSettingsFile, SettingsStore } from "../../src/components/settings/settingsStore";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { testTool } from "../helpers/agentHarness";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { FAST_RETRIES } from "../helpers/runnerHarness";
import { App, Plugin } from "../obsidian/obsidian";
import { keyRunsLeft, leakedShapes } from "./leakedRuns";

/**
 * Secrets the plugin holds (the provider's key, another model's, a web-search key, an MCP server's header) are
 * kept in Obsidian's SecretStorage: they never enter data.json, and when the model or a tool
 * echoes them, the request debug view (the payload recorder's text) shows "[redacted]".
 */

const PLUGIN_FOLDER = ".obsidian/plugins/vault-copilot";
const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: PLUGIN_FOLDER };
class TestPlugin extends Plugin {}

const PLANTED = {
  provider: "sk-planted-provider-7f3a9c21",
  brave: "sk-planted-brave-51d0e8aa",
  mcpHeader: "Bearer planted-mcp-token-9e44b1",
  otherModel: "sk-ant-planted-other-model-3c2d",
};

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function pluginWithPlantedSecrets(baseUrl: string) {
  const app = new App();
  await app.vault.adapter.mkdir(PLUGIN_FOLDER);
  const secrets = new ObsidianSecretStore(app.secretStorage);
  const store = await SettingsStore.load({ file: pluginSettingsFile(new TestPlugin(app, manifest) as unknown as ObsidianPlugin), secrets, notify: () => undefined });
  // As the settings tab does: the value goes to SecretStorage, the settings keep only its id.
  secrets.set("planted-provider", PLANTED.provider);
  secrets.set("planted-brave", PLANTED.brave);
  secrets.set("planted-mcp", PLANTED.mcpHeader);
  secrets.set("planted-claude", PLANTED.otherModel);
  await store.update((settings) => ({
    ...settings,
    provider: { ...settings.provider, preset: "custom", baseUrl, model: "test-model", apiKeySecretId: "planted-provider" },
    webSearch: { ...settings.webSearch, braveApiKeySecretId: "planted-brave" },
    mcpServers: [{ name: "notes", enabled: false, transport: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "planted-mcp" } }],
    models: [{ ...settings.provider, preset: "anthropic", baseUrl: "https://api.anthropic.com/v1", model: "claude-other", apiKeySecretId: "planted-claude" }],
  }));
  return { app, secrets, store, dataJson: () => app.vault.adapter.read(`${PLUGIN_FOLDER}/data.json`) };
}

describe("secrets the plugin stores", () => {
  it("never enter data.json", async () => {
    const { dataJson, store } = await pluginWithPlantedSecrets("http://127.0.0.1:9/v1");
    const saved = await dataJson();
    expect(saved).toContain("planted-provider");
    for (const secret of Object.values(PLANTED)) expect(saved).not.toContain(secret);
    expect(JSON.stringify(store.get())).not.toMatch(/sk-planted|planted-mcp-token/);
  });

  it("are redacted from the request debug view when the model and a tool echo them", async () => {
    const all = Object.values(PLANTED).join(" ");
    const shown = await debugViewAfterEcho(all, "Your keys", "Done");
    // The model did get them back (what a tool returns goes to the model); the debug view does not show them.
    expect(server?.requests[1]?.rawBody).toContain(PLANTED.mcpHeader);
    expect(shown).toContain("[redacted]");
    for (const secret of Object.values(PLANTED)) expect(shown).not.toContain(secret);
  });

  it("are redacted from the request debug view cut short, re-cased, base64- or percent-encoded", async () => {
    const echoed = [PLANTED.provider, PLANTED.mcpHeader].flatMap(leakedShapes).join(" · ");
    const shown = await debugViewAfterEcho(echoed, "Ключи", "Готово");
    expect(shown).toContain("The server says: [redacted]");
    for (const secret of [PLANTED.provider, PLANTED.mcpHeader]) expect(keyRunsLeft(shown, secret)).toEqual([]);
  });
});

/**
 * One agent run in which the model says `echoed` in its answers and has an "echo" tool return it,
 * with the plugin's planted secrets; what the request debug view shows of the last request.
 */
async function debugViewAfterEcho(echoed: string, answerLabel: string, doneLabel: string): Promise<string> {
  server = await startOpenAIServer([
    { text: `${answerLabel}: ${echoed}`, toolCalls: [{ name: "echo", arguments: JSON.stringify({ value: echoed }) }] },
    { text: `${doneLabel}: ${echoed}` },
  ]);
  const { secrets, store } = await pluginWithPlantedSecrets(server.baseUrl);
  const registry = new ToolRegistry();
  registry.registerAll([testTool("echo", ({ value }) => Promise.resolve(`The server says: ${value}`))]);
  await store.update((settings) => ({ ...settings, autonomousAgentEnabledToolIds: ["echo"] }));
  // What main.ts hands the recorder: every secret the settings name.
  const recorder = new PromptPayloadRecorder(() => storedSecretValues(store.get(), secrets));
  const runner = new AutonomousAgentChainRunner({
    getSettings: () => store.get(),
    createModel: () => createChatModel(store.get().provider, { fetch: globalThis.fetch, secrets }),
    recorder,
    retryPolicy: FAST_RETRIES,
    registry,
    vaultAvailable: () => false,
  });
  const result = await runner.run({ userMessage: "Show me my keys", conversation: new ContextManager(), signal: new AbortController().signal });
  expect(result.stopReason).toBe("answer");
  return formatLayeredPayload(recorder.getLast() ?? (null as never));
}

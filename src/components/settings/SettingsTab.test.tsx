import type { App as ObsidianApp, Plugin as ObsidianPlugin, SettingDefinitionGroup } from "obsidian";
import { act } from "react";
import { z } from "zod";
import { App, Plugin } from "../../../test/obsidian/obsidian";
import { DEFAULT_SETTINGS } from "../../constants";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import { healthLines, type IndexHealth, type IndexHealthSource } from "./semanticSearchSection";
import { knownToTakeTools } from "../../LLMProviders/modelChoice";
import { MapSecretStore } from "../../ports/SecretStore";
import { startOpenAIServer } from "../../../test/helpers/openAIServer";
import { ToolRegistry } from "../../tools/ToolRegistry";
import { ObsidianSecretStore } from "./obsidianSecretStore";
import { PROVIDER_PRESET_DETAILS } from "./providerPresets";
import { VaultCopilotSettingTab } from "./SettingsTab";
import { pluginSettingsFile, SettingsStore } from "./settingsStore";

// Tells React that this test drives updates through act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/vault-copilot" };

class TestPlugin extends Plugin {}

async function openTab(connection?: ChatModelPorts, indexHealth?: IndexHealthSource) {
  const app = new App();
  const plugin = new TestPlugin(app, manifest);
  const store = await SettingsStore.load({
    file: pluginSettingsFile(plugin as unknown as ObsidianPlugin),
    secrets: new ObsidianSecretStore(app.secretStorage),
    notify: () => undefined,
  });
  const registry = new ToolRegistry();
  registry.register({
    tool: { name: "readNote", description: "", schema: z.object({}), func: () => Promise.resolve("") },
    metadata: { id: "readNote", displayName: "Read note", description: "Reads a note", category: "file" },
  });
  const tab = new VaultCopilotSettingTab(app as unknown as ObsidianApp, plugin as unknown as ObsidianPlugin, store, registry, undefined, connection, indexHealth);
  document.body.appendChild(tab.containerEl);
  // Obsidian before 1.13 draws the tab through display() (deprecated in the 1.13 types).
  const olderObsidian: { display(): void } = tab;
  act(() => olderObsidian.display());
  const rowNamed = (name: string): HTMLElement => {
    const row = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].find(
      (item) => item.querySelector(".setting-item-name")?.textContent === name,
    );
    if (!row) throw new Error(`No settings row named "${name}"`);
    return row;
  };
  const savedSettings = async () => JSON.parse(await app.vault.adapter.read(".obsidian/plugins/vault-copilot/data.json")) as typeof DEFAULT_SETTINGS;
  return { app, tab, store, registry, rowNamed, savedSettings };
}

/** Sets a control's value and fires `event`, as a user's edit would (settings changes redraw the React tool list). */
function edit(control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string, event: "input" | "change"): void {
  act(() => {
    control.value = value;
    control.dispatchEvent(new Event(event));
  });
}

const type = (input: HTMLInputElement | HTMLTextAreaElement, text: string) => edit(input, text, "input");
const choose = (select: HTMLSelectElement, value: string) => edit(select, value, "change");

const flush = () => act(() => Promise.resolve());

afterEach(() => document.body.empty());

describe("VaultCopilotSettingTab", () => {
  it("shows the sections as Obsidian headings, in order", async () => {
    const { tab } = await openTab();
    const headings = [...tab.containerEl.querySelectorAll(".setting-item-heading .setting-item-name")].map((el) => el.textContent);
    expect(headings).toEqual(["Model provider", "Agent", "Note search", "Semantic search", "Inline completion", "Chat history and prompts", "Web search", "Agent tools", "MCP servers"]);
  });

  it("choosing a provider preset fills in its base URL", async () => {
    const { rowNamed, store, savedSettings } = await openTab();
    choose(rowNamed("Provider").querySelector("select")!, "ollama");
    await flush();
    expect(store.get().provider).toMatchObject({ preset: "ollama", baseUrl: PROVIDER_PRESET_DETAILS.ollama.baseUrl });
    expect(rowNamed("Base URL").querySelector("input")!.value).toBe(PROVIDER_PRESET_DETAILS.ollama.baseUrl);
    expect((await savedSettings()).provider.baseUrl).toBe(PROVIDER_PRESET_DETAILS.ollama.baseUrl);
  });

  it("keeps only the secret's id in the settings: the key stays in SecretStorage", async () => {
    const { app, rowNamed, savedSettings } = await openTab();
    app.secretStorage.setSecret("my-openai", "sk-very-secret");
    const picker = rowNamed("API key").querySelector<HTMLInputElement>("input.secret-component")!;
    expect(picker.value).toBe(DEFAULT_SETTINGS.provider.apiKeySecretId);
    edit(picker, "my-openai", "change");
    await flush();
    const saved = await savedSettings();
    expect(saved.provider.apiKeySecretId).toBe("my-openai");
    expect(JSON.stringify(saved)).not.toContain("sk-very-secret");
  });

  it("saves a valid number, and refuses an invalid one with a message and without saving", async () => {
    const { rowNamed, store } = await openTab();
    const row = rowNamed("Steps per answer");
    const input = row.querySelector("input")!;
    type(input, "12");
    await flush();
    expect(store.get().autonomousAgentMaxIterations).toBe(12);
    type(input, "500");
    await flush();
    expect(store.get().autonomousAgentMaxIterations).toBe(12);
    expect(row.classList.contains("is-invalid")).toBe(true);
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toMatch(/50/);
    type(input, "abc");
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toBe("Enter a whole number.");
    type(input, "7");
    await flush();
    expect(row.querySelector(".vault-copilot-setting-error")).toBeNull();
    expect(store.get().autonomousAgentMaxIterations).toBe(7);
  });

  it("saves temperature and the longest answer, refusing values out of range", async () => {
    const { rowNamed, store } = await openTab();
    const temperature = rowNamed("Temperature").querySelector("input")!;
    type(temperature, "0.7");
    await flush();
    expect(store.get().provider.temperature).toBe(0.7);
    type(temperature, "3");
    await flush();
    expect(store.get().provider.temperature).toBe(0.7);
    expect(rowNamed("Temperature").classList.contains("is-invalid")).toBe(true);
    type(rowNamed("Longest answer").querySelector("input")!, "2048");
    await flush();
    expect(store.get().provider.maxTokens).toBe(2048);
  });

  it("shows the 128k context window a model has by default, saves the one typed and refuses one below 1000", async () => {
    const { rowNamed, store } = await openTab();
    const window = rowNamed("Context window").querySelector("input")!;
    expect(window.value).toBe("128000");
    type(window, "32000");
    await flush();
    expect(store.get().provider.contextWindowTokens).toBe(32000);
    type(window, "500");
    await flush();
    expect(store.get().provider.contextWindowTokens).toBe(32000);
    expect(rowNamed("Context window").classList.contains("is-invalid")).toBe(true);
  });

  it("saves the user's own instructions as typed", async () => {
    const { rowNamed, store } = await openTab();
    type(rowNamed("Your instructions").querySelector("textarea")!, "Answer in French.\nKeep it short.");
    await flush();
    expect(store.get().systemPrompt).toBe("Answer in French.\nKeep it short.");
  });

  it("switches edits in hidden folders on and off, off by default", async () => {
    const { rowNamed, store, savedSettings } = await openTab();
    const toggle = rowNamed("Allow edits in hidden folders").querySelector<HTMLElement>(".checkbox-container")!;
    expect(toggle.classList.contains("is-enabled")).toBe(false);
    act(() => toggle.click());
    await flush();
    expect(store.get().allowWritesToHiddenFolders).toBe(true);
    expect((await savedSettings()).allowWritesToHiddenFolders).toBe(true);
    await act(() => store.update((settings) => ({ ...settings, allowWritesToHiddenFolders: false })));
    expect(toggle.classList.contains("is-enabled")).toBe(false);
  });

  it("takes MCP servers as a JSON list and refuses a server with a bad name", async () => {
    const { rowNamed, store } = await openTab();
    const area = rowNamed("Servers").querySelector("textarea")!;
    const server = { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["server"], env: {} };
    type(area, JSON.stringify([server]));
    await flush();
    expect(store.get().mcpServers).toEqual([server]);
    type(area, JSON.stringify([{ ...server, name: "bad name" }]));
    await flush();
    expect(store.get().mcpServers).toEqual([server]);
    expect(rowNamed("Servers").querySelector(".vault-copilot-setting-error")?.textContent).toMatch(/Server 0\.name/);
  });

  it("takes excluded folders one per line and refuses an unknown time zone", async () => {
    const { rowNamed, store } = await openTab();
    type(rowNamed("Excluded folders").querySelector("textarea")!, "Archive\n\n  Templates  \n");
    type(rowNamed("Time zone").querySelector("input")!, "Mars/Olympus");
    await flush();
    expect(store.get().search.excludedFolders).toEqual(["Archive", "Templates"]);
    expect(store.get().timeZone).toBe("");
    expect(rowNamed("Time zone").querySelector(".vault-copilot-setting-error")?.textContent).toContain("Mars/Olympus");
  });

  it("shows the SearXNG address only while SearXNG is the web search service", async () => {
    const { rowNamed } = await openTab();
    expect(rowNamed("SearXNG URL").isShown()).toBe(false);
    choose(rowNamed("Search service").querySelector("select")!, "searxng");
    await flush();
    expect(rowNamed("SearXNG URL").isShown()).toBe(true);
    expect(rowNamed("Brave Search API key").isShown()).toBe(false);
  });

  it("shows the tool list from the registry and saves its toggles into the settings", async () => {
    const { rowNamed, store } = await openTab();
    const toggle = rowNamed("Tools the agent may use").querySelector<HTMLInputElement>('[data-tool-id="readNote"] input[type="checkbox"]')!;
    expect(toggle.checked).toBe(DEFAULT_SETTINGS.autonomousAgentEnabledToolIds.includes("readNote"));
    act(() => toggle.click());
    await flush();
    expect(store.get().autonomousAgentEnabledToolIds.includes("readNote")).toBe(!DEFAULT_SETTINGS.autonomousAgentEnabledToolIds.includes("readNote"));
    expect(toggle.checked).toBe(store.get().autonomousAgentEnabledToolIds.includes("readNote"));
  });

  it("releases its subscriptions and the tool list when hidden", async () => {
    const { tab, store } = await openTab();
    const toolList = tab.containerEl.querySelector(".vault-copilot-tools-host")!;
    expect(toolList.childElementCount).toBeGreaterThan(0);
    act(() => tab.hide());
    expect(tab.containerEl.childElementCount).toBe(0);
    expect(toolList.childElementCount).toBe(0);
    // A change after hiding reaches no row (a leftover subscription would redraw into a removed row and throw in React).
    await expect(store.update((s) => ({ ...s, toolTimeoutSeconds: 9 }))).resolves.toBeUndefined();
  });

  it("offers the same rows declaratively (Obsidian 1.13+, searchable) as through display()", async () => {
    const { tab } = await openTab();
    const definitions = tab.getSettingDefinitions() as SettingDefinitionGroup[];
    const declared = definitions.flatMap((group) => [group.heading, ...(group.items ?? []).map((item) => item.name)]);
    const displayed = [...tab.containerEl.querySelectorAll(".setting-item-name")].map((el) => el.textContent);
    expect(declared).toEqual(displayed);
  });

  it("keeps copies of models, makes one the default (the old default kept) and removes one", async () => {
    const { rowNamed, store, savedSettings } = await openTab();
    const row = rowNamed("Other models");
    const button = (name: string) => [...row.querySelectorAll("button")].find((element) => (element.getAttribute("aria-label") ?? element.textContent) === name)!;
    expect(row.textContent).toContain("None yet.");
    act(() => button("Keep a copy").click());
    await flush();
    type(rowNamed("Model").querySelector("input")!, "second-model");
    await flush();
    expect(store.get().provider.model).toBe("second-model");
    expect(store.get().models.map((model) => model.model)).toEqual([DEFAULT_SETTINGS.provider.model]);
    expect(row.textContent).toContain(`${DEFAULT_SETTINGS.provider.model} (OpenAI)`);

    act(() => button(`Make ${DEFAULT_SETTINGS.provider.model} the default model`).click());
    await flush();
    expect(store.get().provider.model).toBe(DEFAULT_SETTINGS.provider.model);
    expect(store.get().models.map((model) => model.model)).toEqual(["second-model"]);
    expect(rowNamed("Model").querySelector("input")!.value).toBe(DEFAULT_SETTINGS.provider.model);

    act(() => button("Remove second-model").click());
    await flush();
    expect((await savedSettings()).models).toEqual([]);
  });

  it("saves prices as entered, and refuses text that is not a price", async () => {
    const { rowNamed, store } = await openTab();
    const input = rowNamed("Prices").querySelector("input")!;
    type(input, "3 / 15 / 0.3");
    await flush();
    expect(store.get().provider.prices).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: null });
    type(input, "three");
    await flush();
    expect(rowNamed("Prices").querySelector(".vault-copilot-setting-error")?.textContent).toMatch(/"three" is not a price/);
    expect(store.get().provider.prices.input).toBe(3);
  });

  it("tests the connection of the model above and shows each check", async () => {
    const server = await startOpenAIServer([{ text: "ready" }], { knownModels: ["here-model"] });
    try {
      const secrets = new MapSecretStore();
      const { rowNamed, store } = await openTab({ fetch: globalThis.fetch, secrets });
      await act(() => store.update((s) => ({ ...s, provider: { ...s.provider, preset: "custom", baseUrl: server.baseUrl, model: "here-model" } })));
      const row = rowNamed("Test connection");
      act(() => row.querySelector("button")!.click());
      const verdictEl = row.querySelector(".vault-copilot-connection-verdict")!;
      // The checks make real requests: wait until the verdict is drawn.
      while (!/Connection (works|has a problem)/.test(verdictEl.textContent ?? "")) await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      const verdict = verdictEl.textContent;
      expect(verdict).toContain("Connection works.");
      expect(verdict).toContain("✓ tools supported");
      // What it saw is kept: new chats with this model may start in Agent.
      await flush();
      expect(knownToTakeTools(store.get(), "here-model")).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("keeps embeddings off until switched on, saying plainly where notes would go", async () => {
    const { rowNamed, store } = await openTab();
    const row = rowNamed("Search by meaning (embeddings)");
    expect(row.querySelector(".setting-item-description")?.textContent).toMatch(/Off by default\. When on, the text of your notes.*is sent to the embeddings server below/);
    expect(store.get().embeddings.enabled).toBe(false);
    const toggle = row.querySelector<HTMLElement>(".checkbox-container")!;
    act(() => toggle.click());
    await flush();
    expect(store.get().embeddings.enabled).toBe(true);
    type(rowNamed("Embed only these folders").querySelector("textarea")!, "Projects\nAreas");
    await flush();
    expect(store.get().embeddings.includeFolders).toEqual(["Projects", "Areas"]);
  });

  it("shows the index's health and rebuilds it on request", async () => {
    let health: IndexHealth = { notes: 1200, terms: 34000, savedBytes: 2_400_000, lastUpdate: Date.now(), embeddings: null };
    let rebuilt = 0;
    const listeners: Array<() => void> = [];
    const { rowNamed } = await openTab(undefined, {
      health: () => health,
      rebuild: () => {
        rebuilt++;
        return Promise.resolve();
      },
      onChange: (listener) => {
        listeners.push(listener);
        return () => undefined;
      },
    });
    const row = rowNamed("Index health");
    expect(row.textContent).toContain("Notes indexed: 1200 (34000 distinct words)");
    expect(row.textContent).toContain("Index size: 2.4 MB");
    expect(row.textContent).toContain("Embeddings: off");
    health = { ...health, embeddings: { embeddedNotes: 900, sections: 4100, waiting: 300, failed: 2, bytes: 800_000, running: true, model: "nomic-embed-text" } };
    act(() => listeners.forEach((listener) => listener()));
    expect(row.textContent).toContain("Embedded notes: 900 (4100 sections, nomic-embed-text)");
    expect(row.textContent).toContain("Waiting: 300 (embedding now)");
    expect(row.textContent).toContain("Failed: 2");
    await act(async () => row.querySelector("button")!.click());
    expect(rebuilt).toBe(1);
    expect(row.textContent).toContain("Rebuilt.");
  });
});

describe("healthLines", () => {
  it("says when the index last changed", () => {
    expect(healthLines({ notes: 0, terms: 0, savedBytes: 0, lastUpdate: 0, embeddings: null })[2]).toBe("Last update: not since Obsidian started");
    expect(healthLines({ notes: 0, terms: 0, savedBytes: 0, lastUpdate: 1_000_000, embeddings: null }, 1_000_000 + 5 * 60_000)[2]).toBe("Last update: 5 min ago");
  });
});

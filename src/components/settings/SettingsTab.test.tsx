import type { App as ObsidianApp, Plugin as ObsidianPlugin, SettingDefinitionGroup } from "obsidian";
import { act } from "react";
import { z } from "zod";
import { App, Plugin } from "../../../test/obsidian/obsidian";
import { DEFAULT_SETTINGS } from "../../constants";
import type { ChatModelPorts } from "../../LLMProviders/chatModelFactory";
import { healthLines, type IndexHealth, type IndexHealthSource } from "./semanticSearchSection";
import { knownToTakeImages, knownToTakeTools } from "../../LLMProviders/modelChoice";
import { MapSecretStore } from "../../ports/SecretStore";
import { startEmbeddingServer } from "../../../test/helpers/embeddingServer";
import { startOpenAIServer } from "../../../test/helpers/openAIServer";
import { ToolRegistry } from "../../tools/ToolRegistry";
import { ObsidianSecretStore } from "./obsidianSecretStore";
import { PROVIDER_PRESET_DETAILS } from "./providerPresets";
import { VaultCopilotSettingTab } from "./SettingsTab";
import { languageFor } from "../../i18n/languages";
import { translate } from "../../i18n/translate";
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

/** A button in `container` by its accessible name (aria-label, else its text); fails when there is none unless `optional`. */
function buttonIn(container: HTMLElement, name: string, optional = false): HTMLButtonElement {
  const found = [...container.querySelectorAll("button")].find((element) => (element.getAttribute("aria-label") ?? element.textContent) === name);
  if (!found && !optional) throw new Error(`No button "${name}"`);
  return found!;
}

/** The open modal form: its title, fields by accessible name, buttons, and the sentence that stops Save. */
function openForm() {
  const element = document.querySelector<HTMLElement>(".modal-container .modal")!;
  if (!element) throw new Error("No form is open");
  const named = <T extends Element>(selector: string, name: string): T => {
    const found = [...element.querySelectorAll<T>(selector)].find((candidate) => candidate.getAttribute("aria-label") === name);
    if (!found) throw new Error(`No field "${name}" in the form`);
    return found;
  };
  return {
    element,
    title: element.querySelector(".modal-title")?.textContent,
    field: (name: string) => named<HTMLInputElement | HTMLTextAreaElement>("input, textarea", name),
    select: (name: string) => named<HTMLSelectElement>("select", name),
    button: (name: string) => buttonIn(element, name),
    error: () => element.querySelector(".vault-copilot-form-error")?.textContent,
  };
}

/** Waits until a real request's verdict is drawn (the wait ends as soon as it is). */
async function waitForText(element: Element, text: string): Promise<void> {
  for (let tries = 0; !(element.textContent ?? "").includes(text); tries++) {
    if (tries > 1000) throw new Error(`"${text}" never appeared; the row shows: ${element.textContent}`);
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
}

afterEach(() => document.body.empty());

describe("VaultCopilotSettingTab", () => {
  it("shows the sections as Obsidian headings, in order", async () => {
    const { tab } = await openTab();
    const headings = [...tab.containerEl.querySelectorAll(".setting-item-heading .setting-item-name")].map((el) => el.textContent);
    expect(headings).toEqual(["Model provider", "Agent", "Note search", "Semantic search", "Inline completion", "Chat history and prompts", "Chat view", "Web search", "Web pages", "Agent tools", "MCP servers"]);
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

  it("takes MCP servers as a JSON list (the advanced view, folded) and refuses a server with a bad name", async () => {
    const { rowNamed, store } = await openTab();
    const row = rowNamed("Servers as JSON");
    expect(row.classList.contains("is-open")).toBe(false);
    act(() => buttonIn(row, "Show JSON").click());
    expect(row.classList.contains("is-open")).toBe(true);
    const area = row.querySelector("textarea")!;
    const server = { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["server"], env: {} };
    type(area, JSON.stringify([server]));
    await flush();
    expect(store.get().mcpServers).toEqual([server]);
    type(area, JSON.stringify([{ ...server, name: "bad name" }]));
    await flush();
    expect(store.get().mcpServers).toEqual([server]);
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toMatch(/Server 0\.name/);
    // The list above follows what the JSON holds.
    expect(rowNamed("Servers").textContent).toContain("files Program: npx server");
  });

  it("adds an MCP server through its form (a program with arguments and a secret's id in its environment); the JSON view says the same, and an edit there reaches the form", async () => {
    const { rowNamed, store } = await openTab();
    act(() => buttonIn(rowNamed("Servers"), "Add server").click());
    const form = openForm();
    expect(form.title).toBe("Add MCP server");
    type(form.field("Name"), "файлы");
    type(form.field("Command"), "npx");
    type(form.field("Arguments"), "-y\n@modelcontextprotocol/server-filesystem\n/Users/me/Заметки и 笔记");
    type(form.field("Environment"), "API_TOKEN=sk_LIVE_4f9aQ");
    act(() => form.button("Save").click());
    // Refused, in a sentence, and nothing saved: a name with other letters, then an env value that is no secret's id.
    expect(form.error()).toBe('The name "файлы" may hold only letters, digits and "-" (it becomes part of its tools\' ids).');
    type(form.field("Name"), "files-ru");
    act(() => form.button("Save").click());
    expect(form.error()).toBe('Environment, line 1: "sk_LIVE_4f9aQ" is not a secret\'s id (lowercase letters, digits and dashes), and never the secret itself.');
    expect(store.get().mcpServers).toEqual([]);
    type(form.field("Environment"), "API_TOKEN=files-token");
    act(() => form.button("Save").click());
    await flush();
    const added = { name: "files-ru", enabled: true, transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Заметки и 笔记"], env: { API_TOKEN: "files-token" } };
    expect(store.get().mcpServers).toEqual([added]);
    expect(document.querySelector(".modal-container")).toBeNull();
    const json = rowNamed("Servers as JSON").querySelector("textarea")!;
    expect(JSON.parse(json.value)).toEqual([added]);

    // The JSON edited by hand: the form opened from the list shows it; switched to a URL server it saves one.
    type(json, JSON.stringify([{ ...added, args: ["--verbose"] }]));
    await flush();
    act(() => buttonIn(rowNamed("Servers"), "Edit files-ru").click());
    const edit = openForm();
    expect(edit.field("Arguments").value).toBe("--verbose");
    expect(edit.field("Environment").value).toBe("API_TOKEN=files-token");
    choose(edit.select("Transport"), "http");
    type(edit.field("URL"), "https://mcp.example.org/mcp");
    type(edit.field("Headers"), "Authorization=remote-token");
    act(() => edit.button("Save").click());
    await flush();
    expect(store.get().mcpServers).toEqual([{ name: "files-ru", enabled: true, transport: "http", url: "https://mcp.example.org/mcp", headers: { Authorization: "remote-token" } }]);
    expect(JSON.parse(json.value)).toEqual(store.get().mcpServers);
    act(() => buttonIn(rowNamed("Servers"), "Remove files-ru").click());
    await flush();
    expect(store.get().mcpServers).toEqual([]);
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

  it('"Add model" opens an empty form; a model saved there can be edited, made the default (the old default kept) and removed', async () => {
    const { app, rowNamed, store, savedSettings } = await openTab();
    const row = rowNamed("Other models");
    expect(row.textContent).toContain("None yet.");
    expect(buttonIn(row, "Keep a copy", true)).toBeUndefined();
    act(() => buttonIn(row, "Add model").click());
    const form = openForm();
    expect(form.title).toBe("Add model");
    // Empty: nothing of the default model's.
    expect([form.field("Model name").value, form.field("Base URL").value, form.field("Input price (dollars per million tokens)").value]).toEqual(["", "", ""]);
    act(() => form.button("Save").click());
    expect(form.error()).toBe("Enter the model's name.");
    choose(form.select("Provider"), "ollama");
    expect(form.field("Base URL").value).toBe(PROVIDER_PRESET_DETAILS.ollama.baseUrl);
    type(form.field("Model name"), DEFAULT_SETTINGS.provider.model);
    act(() => form.button("Save").click());
    expect(form.error()).toBe(`There is a model named "${DEFAULT_SETTINGS.provider.model}" already: give this one another name.`);
    type(form.field("Model name"), "qwen3:8b");
    type(form.field("Temperature"), "hot");
    act(() => form.button("Save").click());
    expect(form.error()).toBe("Temperature: Enter a number such as 0.7.");
    type(form.field("Temperature"), "0.5");
    type(form.field("Output price (dollars per million tokens)"), "0,6");
    app.secretStorage.setSecret("ollama-key", "not-needed");
    edit(form.element.querySelector<HTMLInputElement>("input.secret-component")!, "ollama-key", "change");
    act(() => form.button("Save").click());
    await flush();
    expect(store.get().models).toEqual([
      { preset: "ollama", baseUrl: PROVIDER_PRESET_DETAILS.ollama.baseUrl, model: "qwen3:8b", apiKeySecretId: "ollama-key", temperature: 0.5, maxTokens: 4096, prices: { input: null, output: 0.6, cacheRead: null, cacheWrite: null } },
    ]);
    expect(row.textContent).toContain("qwen3:8b (Ollama (on this computer))");

    act(() => buttonIn(row, "Edit qwen3:8b").click());
    const edit2 = openForm();
    expect(edit2.title).toBe("Edit qwen3:8b");
    expect(edit2.field("Output price (dollars per million tokens)").value).toBe("0.6");
    type(edit2.field("Context window"), "32768");
    act(() => edit2.button("Save").click());
    await flush();
    expect(store.get().models[0]?.contextWindowTokens).toBe(32768);

    act(() => buttonIn(row, "Make qwen3:8b the default model").click());
    await flush();
    expect(store.get().provider.model).toBe("qwen3:8b");
    expect(store.get().models.map((model) => model.model)).toEqual([DEFAULT_SETTINGS.provider.model]);
    act(() => buttonIn(row, `Remove ${DEFAULT_SETTINGS.provider.model}`).click());
    await flush();
    expect((await savedSettings()).models).toEqual([]);
  });

  it("takes the four prices in their own labelled fields, and refuses text that is not a price", async () => {
    const { rowNamed, store } = await openTab();
    const row = rowNamed("Prices");
    const field = (label: string) => row.querySelector<HTMLInputElement>(`input[aria-label="${label} price (dollars per million tokens)"]`)!;
    expect([...row.querySelectorAll(".vault-copilot-price-label")].map((label) => label.textContent)).toEqual(["Input", "Output", "Cache read", "Cache write"]);
    type(field("Input"), "3");
    type(field("Output"), "$15");
    type(field("Cache read"), "0.3");
    await flush();
    expect(store.get().provider.prices).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: null });
    type(field("Cache write"), "три");
    await flush();
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toBe('Cache write: "три" is not a price: enter US dollars per million tokens, from 0 to 100000 (e.g. 0.15).');
    expect(store.get().provider.prices.cacheWrite).toBeNull();
    type(field("Cache write"), "");
    await flush();
    expect(row.querySelector(".vault-copilot-setting-error")).toBeNull();
    // A change made elsewhere reaches the fields.
    await act(() => store.update((settings) => ({ ...settings, provider: { ...settings.provider, prices: { ...settings.provider.prices, input: 2.5 } } })));
    expect(field("Input").value).toBe("2.5");
  });

  it("keeps the completion model's prices apart from the chat model's, in the same four fields", async () => {
    const { rowNamed, store } = await openTab();
    const row = rowNamed("Completion prices");
    const field = (label: string) => row.querySelector<HTMLInputElement>(`input[aria-label="${label} price (dollars per million tokens)"]`)!;
    type(field("Input"), "0,1");
    type(field("Output"), "0.4");
    await flush();
    expect(store.get().completion.model.prices).toEqual({ input: 0.1, output: 0.4, cacheRead: null, cacheWrite: null });
    expect(store.get().provider.prices).toEqual(DEFAULT_SETTINGS.provider.prices);
    type(field("Output"), "сорок");
    await flush();
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toContain('Output: "сорок" is not a price');
    expect(store.get().completion.model.prices.output).toBe(0.4);
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
      // Coloured as Obsidian colours success: the headline and each passed check.
      expect(verdictEl.querySelector(".vault-copilot-verdict-ok")?.textContent).toBe("Connection works.");
      expect(verdictEl.querySelectorAll(".vault-copilot-check.is-yes")).toHaveLength(4);
      // What it saw is kept: new chats with this model may start in Agent.
      await flush();
      expect(knownToTakeTools(store.get(), "here-model")).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("keeps \"Takes images\" per model: not known until set, saved in data.json, and the next model starts not known again", async () => {
    const { rowNamed, store, savedSettings } = await openTab();
    const select = rowNamed("Takes images").querySelector("select")!;
    expect(select.value).toBe("unknown");
    expect(knownToTakeImages(store.get(), store.get().provider.model)).toBeNull();
    edit(select, "yes", "change");
    await flush();
    expect(knownToTakeImages(store.get(), store.get().provider.model)).toBe(true);
    expect(Object.values((await savedSettings()).modelImageSupport)).toEqual([true]);
    // Another model (its key names provider, server and model) is not known.
    await act(() => store.update((s) => ({ ...s, provider: { ...s.provider, model: "другая-модель" } })));
    expect(select.value).toBe("unknown");
    edit(select, "no", "change");
    await flush();
    expect(knownToTakeImages(store.get(), "другая-модель")).toBe(false);
    edit(select, "unknown", "change");
    await flush();
    expect(knownToTakeImages(store.get(), "другая-модель")).toBeNull();
  });

  it("reads web pages unless switched off, and keeps the longest page within 1000 to 500000 characters", async () => {
    const { rowNamed, store } = await openTab();
    expect(store.get().webPages).toEqual({ enabled: true, maxCharacters: 40_000 });
    act(() => rowNamed("Read web pages").querySelector<HTMLElement>(".checkbox-container")!.click());
    await flush();
    expect(store.get().webPages.enabled).toBe(false);
    const field = rowNamed("Longest web page").querySelector("input")!;
    type(field, "999");
    await flush();
    expect(store.get().webPages.maxCharacters).toBe(40_000);
    type(field, "12000");
    await flush();
    expect(store.get().webPages.maxCharacters).toBe(12_000);
  });

  it("tests the embeddings server with a real request and says the verdict in its colour, in a sentence either way", async () => {
    const server = await startEmbeddingServer({ dimensions: 24, knownModels: ["bge-m3"] });
    try {
      const { rowNamed, store } = await openTab({ fetch: globalThis.fetch, secrets: new MapSecretStore() });
      await act(() => store.update((s) => ({ ...s, embeddings: { ...s.embeddings, baseUrl: server.baseUrl, model: "bge-m3" } })));
      const row = rowNamed("Test embeddings server");
      const verdict = () => row.querySelector(".vault-copilot-connection-verdict")!;
      await act(async () => buttonIn(row, "Test").click());
      await waitForText(verdict(), "works");
      expect(verdict().querySelector(".vault-copilot-verdict-ok")?.textContent).toBe("The embeddings server works.");
      expect(verdict().querySelector(".vault-copilot-check.is-yes")?.textContent).toBe('✓ The server answered: "bge-m3" gives vectors of 24 numbers.');
      expect(server.requests.map((request) => request.model)).toEqual(["bge-m3"]);

      await act(() => store.update((s) => ({ ...s, embeddings: { ...s.embeddings, model: "nomic-embed-text" } })));
      await act(async () => buttonIn(row, "Test").click());
      await waitForText(verdict(), "problem");
      expect(verdict().querySelector(".vault-copilot-verdict-failed")?.textContent).toBe("The embeddings server has a problem.");
      expect(verdict().querySelector(".vault-copilot-check.is-no")?.textContent).toBe(`✗ The embeddings server (${server.baseUrl}) has no model "nomic-embed-text". Check the embeddings model's name.`);
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
    expect(row.textContent).toContain("Notes indexed: 1,200 (34,000 distinct words)");
    expect(row.textContent).toContain("Index size: 2.4 MB");
    expect(row.textContent).toContain("Embeddings: off");
    health = { ...health, embeddings: { embeddedNotes: 900, sections: 4100, waiting: 300, failed: 2, bytes: 800_000, running: true, model: "nomic-embed-text" } };
    act(() => listeners.forEach((listener) => listener()));
    expect(row.textContent).toContain("Embedded notes: 900 (4,100 sections, nomic-embed-text)");
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

describe("the settings tab's field checks in another language", () => {
  afterEach(() => window.localStorage.removeItem("language"));

  it("word zod's refusal by its code and bounds, and save nothing", async () => {
    window.localStorage.setItem("language", "ru");
    const { rowNamed, store } = await openTab();
    const row = rowNamed(translate(languageFor("ru"), "settings.steps.name"));
    const input = row.querySelector("input")!;
    type(input, "500");
    await flush();
    expect(store.get().autonomousAgentMaxIterations).toBe(DEFAULT_SETTINGS.autonomousAgentMaxIterations);
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toBe("Должно быть не больше 50.");
    type(input, "0");
    await flush();
    expect(row.querySelector(".vault-copilot-setting-error")?.textContent).toBe("Должно быть не меньше 1.");
  });
});

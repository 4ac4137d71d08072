import type { Plugin as ObsidianPlugin } from "obsidian";
import { App, Plugin } from "../../../test/obsidian/obsidian";
import { DEFAULT_SETTINGS } from "../../constants";
import { ObsidianSecretStore } from "./obsidianSecretStore";
import { pluginSettingsFile, SettingsStore, SettingsValidationError, type SettingsFile } from "./settingsStore";
import type { CopilotSettings } from "../../settings/settingsSchema";

const PLUGIN_FOLDER = ".obsidian/plugins/vault-copilot";
const DATA_PATH = `${PLUGIN_FOLDER}/data.json`;
const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: PLUGIN_FOLDER };

class TestPlugin extends Plugin {}

/** A plugin on the double whose data.json holds `text` (or nothing), and the store's parts. */
async function setUp(text?: string) {
  const app = new App();
  await app.vault.adapter.mkdir(PLUGIN_FOLDER);
  if (text !== undefined) await app.vault.adapter.write(DATA_PATH, text);
  const plugin = new TestPlugin(app, manifest);
  const notices: string[] = [];
  const file = pluginSettingsFile(plugin as unknown as ObsidianPlugin);
  const secrets = new ObsidianSecretStore(app.secretStorage);
  const load = (overrides: Partial<{ file: SettingsFile }> = {}) =>
    SettingsStore.load({
      file: overrides.file ?? file,
      secrets,
      notify: (message) => notices.push(message),
      now: () => new Date("2026-12-02T10:20:30.456Z"),
    });
  const savedText = () => app.vault.adapter.read(DATA_PATH);
  return { app, notices, load, savedText, file };
}

describe("SettingsStore.load", () => {
  it("starts from the defaults, quietly, when there is no data.json", async () => {
    const { load, notices } = await setUp();
    const store = await load();
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(notices).toEqual([]);
  });

  it("treats an empty data.json (what a crash during a save leaves) as no settings: defaults, no backup, no notice", async () => {
    const { app, load, notices, savedText } = await setUp("  \n");
    const store = await load();
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(notices).toEqual([]);
    expect((await app.vault.adapter.list(PLUGIN_FOLDER)).files).toEqual([DATA_PATH]);
    expect(JSON.parse(await savedText())).toEqual(DEFAULT_SETTINGS);
  });

  it("keeps a copy of a data.json that is not JSON, falls back to the defaults and tells the user", async () => {
    const corrupt = '{"provider": {"model": "my-model", ';
    const { app, load, notices, savedText } = await setUp(corrupt);
    const store = await load();
    const backup = `${DATA_PATH}.corrupt-2026-12-02T10-20-30-456Z`;
    expect(await app.vault.adapter.read(backup)).toBe(corrupt);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(JSON.parse(await savedText())).toEqual(DEFAULT_SETTINGS);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("not valid JSON");
    expect(notices[0]).toContain(backup);
  });

  it("leaves a corrupt data.json alone when no copy can be kept", async () => {
    const corrupt = "{ broken";
    const { load, notices, savedText, file } = await setUp(corrupt);
    const failingBackup: SettingsFile = {
      ...file,
      adapter: {
        exists: (path) => file.adapter.exists(path),
        read: (path) => file.adapter.read(path),
        write: () => Promise.reject(new Error("disk full")),
      },
    };
    const store = await load({ file: failingBackup });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(await savedText()).toBe(corrupt);
    expect(notices[0]).toContain("disk full");
  });

  it("migrates the first shape: the key goes to SecretStorage and never back into data.json", async () => {
    const oldShape = { baseUrl: "http://127.0.0.1:11434/v1", model: "qwen2.5", openAIApiKey: "sk-old-plain-key", enabledToolIds: ["readNote"] };
    const { app, load, savedText, notices } = await setUp(JSON.stringify(oldShape));
    const store = await load();
    const secretId = DEFAULT_SETTINGS.provider.apiKeySecretId;
    expect(app.secretStorage.getSecret(secretId)).toBe("sk-old-plain-key");
    expect(store.get().provider).toMatchObject({ baseUrl: "http://127.0.0.1:11434/v1", model: "qwen2.5", apiKeySecretId: secretId });
    expect(store.get().autonomousAgentEnabledToolIds).toEqual(["readNote"]);
    const saved = await savedText();
    expect(saved).not.toContain("sk-old-plain-key");
    expect((JSON.parse(saved) as CopilotSettings).provider.model).toBe("qwen2.5");
    expect(notices).toEqual([]);
  });

  it("keeps the plain key in data.json when SecretStorage refuses it, and says so", async () => {
    const oldShape = { model: "m", apiKey: "sk-keep-me" };
    const { savedText, notices, file } = await setUp(JSON.stringify(oldShape));
    const store = await SettingsStore.load({
      file,
      secrets: { get: () => null, set: () => { throw new Error("storage locked"); } },
      notify: (message) => notices.push(message),
    });
    expect(store.get().provider.model).toBe("m");
    expect(await savedText()).toContain("sk-keep-me");
    expect(notices[0]).toContain("storage locked");
  });

  it("repairs a hand-edited file part by part and lists what was reset", async () => {
    const edited = { ...DEFAULT_SETTINGS, autonomousAgentMaxIterations: "many", provider: { ...DEFAULT_SETTINGS.provider, model: "kept" } };
    const { load, notices, savedText } = await setUp(JSON.stringify(edited));
    const store = await load();
    expect(store.get().provider.model).toBe("kept");
    expect(store.get().autonomousAgentMaxIterations).toBe(DEFAULT_SETTINGS.autonomousAgentMaxIterations);
    expect(notices[0]).toContain("autonomousAgentMaxIterations");
    expect((JSON.parse(await savedText()) as CopilotSettings).autonomousAgentMaxIterations).toBe(DEFAULT_SETTINGS.autonomousAgentMaxIterations);
  });

  it("does not rewrite data.json that is already current", async () => {
    const text = JSON.stringify(DEFAULT_SETTINGS);
    const { load, savedText } = await setUp(text);
    await load();
    expect(await savedText()).toBe(text);
  });
});

describe("SettingsStore.update", () => {
  it("saves a valid change and hands it to every subscriber", async () => {
    const { load, savedText } = await setUp();
    const store = await load();
    const seen: string[] = [];
    const unsubscribe = store.subscribe((settings) => seen.push(settings.provider.model));
    await store.update((s) => ({ ...s, provider: { ...s.provider, model: "llama3.1" } }));
    unsubscribe();
    await store.update((s) => ({ ...s, provider: { ...s.provider, model: "unseen" } }));
    expect(seen).toEqual(["llama3.1"]);
    expect((JSON.parse(await savedText()) as CopilotSettings).provider.model).toBe("unseen");
  });

  it("refuses a change that does not fit the schema and keeps the settings as they were", async () => {
    const { load } = await setUp();
    const store = await load();
    await expect(store.update((s) => ({ ...s, autonomousAgentMaxIterations: 0 }))).rejects.toBeInstanceOf(SettingsValidationError);
    expect(store.get().autonomousAgentMaxIterations).toBe(DEFAULT_SETTINGS.autonomousAgentMaxIterations);
  });

  it("saves changes one after another in the order they were made, even when a save is slow", async () => {
    const { load, savedText, file } = await setUp();
    // Saving "a" takes longest: were saves not queued, it would land last and win.
    const slowFirstSave: SettingsFile = {
      ...file,
      saveData: async (data) => {
        if ((data as CopilotSettings).provider.model === "a") await new Promise((resolve) => setTimeout(resolve, 50));
        await file.saveData(data);
      },
    };
    const queued = await load({ file: slowFirstSave });
    await Promise.all(["a", "b", "c"].map((model) => queued.update((s) => ({ ...s, provider: { ...s.provider, model } }))));
    expect((JSON.parse(await savedText()) as CopilotSettings).provider.model).toBe("c");
  });

  it("reload picks up a data.json changed on disk (e.g. by sync) and tells the subscribers", async () => {
    const { app, load } = await setUp();
    const store = await load();
    const seen: number[] = [];
    store.subscribe((settings) => seen.push(settings.toolTimeoutSeconds));
    await app.vault.adapter.write(DATA_PATH, JSON.stringify({ ...DEFAULT_SETTINGS, toolTimeoutSeconds: 5 }));
    await store.reload();
    expect(store.get().toolTimeoutSeconds).toBe(5);
    expect(seen).toEqual([5]);
  });
});

import { DEFAULT_SETTINGS } from "../constants";
import { loadSettings as loadWithDefaults } from "./loadSettings";
import { SETTINGS_VERSION } from "./settingsSchema";

const loadSettings = (raw: unknown) => loadWithDefaults(raw, DEFAULT_SETTINGS);
/** The problems' English sentences, one a line. */
const problemText = (loaded: ReturnType<typeof loadSettings>) => loaded.problems.map((problem) => problem.text).join("\n");

describe("loadSettings", () => {
  it("gives the defaults for an empty file (null, undefined or {})", () => {
    for (const raw of [null, undefined, {}]) {
      const loaded = loadSettings(raw);
      expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
      expect(loaded.problems).toEqual([]);
      expect(loaded.secretsToStore).toEqual([]);
    }
  });

  it("keeps valid saved values and fills in what is missing", () => {
    const loaded = loadSettings({
      settingsVersion: SETTINGS_VERSION,
      autonomousAgentMaxIterations: 3,
      provider: { ...DEFAULT_SETTINGS.provider, model: "llama3.1" },
    });
    expect(loaded.settings.autonomousAgentMaxIterations).toBe(3);
    expect(loaded.settings.provider.model).toBe("llama3.1");
    expect(loaded.settings.search).toEqual(DEFAULT_SETTINGS.search);
    expect(loaded.problems).toEqual([]);
  });

  it("survives a hand-edited file: bad parts fall back one by one, with a problem for each", () => {
    const loaded = loadSettings({
      settingsVersion: SETTINGS_VERSION,
      autonomousAgentMaxIterations: "lots",
      provider: { ...DEFAULT_SETTINGS.provider, baseUrl: "not a url", model: "kept-model" },
      autonomousAgentEnabledToolIds: ["readNote", 7, null, "webSearch"],
      search: "oops",
      defaultMode: "chat",
    });
    expect(loaded.settings.autonomousAgentMaxIterations).toBe(DEFAULT_SETTINGS.autonomousAgentMaxIterations);
    expect(loaded.settings.provider.baseUrl).toBe(DEFAULT_SETTINGS.provider.baseUrl);
    expect(loaded.settings.provider.model).toBe("kept-model");
    expect(loaded.settings.autonomousAgentEnabledToolIds).toEqual(["readNote", "webSearch"]);
    expect(loaded.settings.search).toEqual(DEFAULT_SETTINGS.search);
    expect(loaded.settings.defaultMode).toBe("chat");
    expect(loaded.problems).toHaveLength(4);
    expect(problemText(loaded)).toMatch(/autonomousAgentMaxIterations/);
    expect(problemText(loaded)).toMatch(/provider\.baseUrl/);
    expect(problemText(loaded)).toMatch(/2 unreadable item/);
    expect(problemText(loaded)).toMatch(/"search" was not an object/);
    // Each sentence travels with its case, in one list, so a view cannot pair a sentence with another's case.
    expect(loaded.problems.map((problem) => problem.reason)).toEqual([
      { code: "invalid", setting: "provider.baseUrl" },
      { code: "items-dropped", setting: "autonomousAgentEnabledToolIds", count: 2 },
      { code: "invalid", setting: "autonomousAgentMaxIterations" },
      { code: "part-not-object", setting: "search" },
    ]);
    expect(loaded.needsSave).toBe(true);
  });

  it("resets everything, and says so, when the file holds no object", () => {
    for (const raw of [[1, 2], "text", 42]) {
      const loaded = loadSettings(raw);
      expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
      expect(loaded.problems).toHaveLength(1);
    }
  });

  it("migrates the first shape: provider fields moved, key sent to SecretStorage, tool list renamed", () => {
    const loaded = loadSettings({
      baseUrl: "http://localhost:11434/v1",
      model: "qwen2.5",
      temperature: 0.7,
      openAIApiKey: "sk-test-123456",
      enabledToolIds: ["readNote"],
    });
    expect(loaded.settings.provider).toEqual({
      ...DEFAULT_SETTINGS.provider,
      baseUrl: "http://localhost:11434/v1",
      model: "qwen2.5",
      temperature: 0.7,
    });
    expect(loaded.settings.autonomousAgentEnabledToolIds).toEqual(["readNote"]);
    expect(loaded.secretsToStore).toEqual([{ id: DEFAULT_SETTINGS.provider.apiKeySecretId, value: "sk-test-123456" }]);
    expect(JSON.stringify(loaded.settings)).not.toContain("sk-test-123456");
    expect(loaded.settings.settingsVersion).toBe(SETTINGS_VERSION);
    expect(loaded.needsSave).toBe(true);
  });

  it("drops unknown keys, so a stray plain-text secret is never saved back", () => {
    const loaded = loadSettings({ settingsVersion: SETTINGS_VERSION, braveApiKey: "BSA-secret-value" });
    expect(JSON.stringify(loaded.settings)).not.toContain("BSA-secret-value");
  });

  it("does not ask to save settings that are already current", () => {
    const saved = JSON.parse(JSON.stringify(DEFAULT_SETTINGS)) as unknown;
    expect(loadSettings(saved).needsSave).toBe(false);
  });

  it("never hands out the defaults object itself", () => {
    const loaded = loadSettings({});
    loaded.settings.autonomousAgentEnabledToolIds.push("changed");
    expect(DEFAULT_SETTINGS.autonomousAgentEnabledToolIds).not.toContain("changed");
  });

  it("migrates the old flattened MCP server records into the transport union, dropping a repeated name", () => {
    const old = {
      settingsVersion: 2,
      mcpServers: [
        { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["-y", "server"], url: "", env: { TOKEN: "files-token" } },
        { name: "remote", enabled: false, transport: "http", command: "", args: [], url: "http://127.0.0.1:3001/mcp", env: { Authorization: "remote-auth" } },
        { name: "files", enabled: true, transport: "stdio", command: "other", args: [], url: "", env: {} },
      ],
    };
    const loaded = loadSettings(old);
    expect(loaded.settings.mcpServers).toEqual([
      { name: "files", enabled: true, transport: "stdio", command: "npx", args: ["-y", "server"], env: { TOKEN: "files-token" } },
      { name: "remote", enabled: false, transport: "http", url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "remote-auth" } },
    ]);
    expect(loaded.problems).toEqual([{ text: 'Two MCP servers were named "files"; the second was dropped.', reason: { code: "duplicate-server", name: "files" } }]);
    expect(loaded.needsSave).toBe(true);
    // Loading what was saved changes nothing more.
    expect(loadSettings(JSON.parse(JSON.stringify(loaded.settings))).needsSave).toBe(false);
  });

  it("loads settings saved before prices and other models existed, and drops a broken or repeated model", () => {
    const { prices: _none, ...olderProvider } = DEFAULT_SETTINGS.provider;
    const older = loadSettings({ settingsVersion: SETTINGS_VERSION, provider: { ...olderProvider, model: "kept" } });
    expect(older.settings.provider).toEqual({ ...DEFAULT_SETTINGS.provider, model: "kept" });
    expect(older.settings.models).toEqual([]);
    expect(older.problems).toEqual([]);

    const claude = { ...DEFAULT_SETTINGS.provider, preset: "anthropic", baseUrl: "https://api.anthropic.com/v1", model: "claude-x" };
    const loaded = loadSettings({ settingsVersion: SETTINGS_VERSION, models: [claude, { ...claude, baseUrl: "nope" , model: "broken" }, { ...claude, temperature: 1 }] });
    expect(loaded.settings.models).toEqual([claude]);
    expect(loaded.problems.length).toBeGreaterThan(0);
    expect(loadSettings(JSON.parse(JSON.stringify(loaded.settings))).needsSave).toBe(false);
  });
});

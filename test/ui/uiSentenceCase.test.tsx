/**
 * UI text is in sentence case everywhere, by the linter's own rule (obsidianmd/ui/sentence-case,
 * with the words eslint.config.mjs keeps). The linter sees only literals in known calls; this test
 * hands the rule what the settings tab (every section, the tools' names and descriptions) and the
 * chat view (after an answer with a tool call) actually render: names, descriptions, buttons,
 * options, headings, labels, placeholders, tooltips and accessible names.
 */
import type { App as ObsidianApp, Plugin as ObsidianPlugin } from "obsidian";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { ObsidianSecretStore } from "../../src/components/settings/obsidianSecretStore";
import { VaultCopilotSettingTab } from "../../src/components/settings/SettingsTab";
import { pluginSettingsFile, SettingsStore } from "../../src/components/settings/settingsStore";
import { BUILTIN_TOOLS, initializeBuiltinTools } from "../../src/tools/builtinTools";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { chatViewSession } from "../helpers/chatViewSession";
import { makeToolDependencies } from "../helpers/toolHarness";
import { App, Plugin } from "../obsidian/obsidian";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const repoRoot = resolve(__dirname, "../..");

/**
 * The strings the linter's rule refuses, each with its suggestion (scripts/ui/sentenceCase.mjs).
 * The built-in tools' names are names inside other labels ("Use Read note").
 */
function refusedBySentenceCase(strings: string[]): { text: string; suggestion: string }[] {
  const names = BUILTIN_TOOLS.map((entry) => entry.metadata.displayName);
  const result = spawnSync(process.execPath, [join(repoRoot, "scripts/ui/sentenceCase.mjs"), ...names.flatMap((name) => ["--name", name])], {
    input: JSON.stringify(strings),
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`scripts/ui/sentenceCase.mjs failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { text: string; suggestion: string }[];
}

const LABEL_ATTRIBUTES = ["aria-label", "title", "placeholder"];
/**
 * Prose (setting descriptions, hints, warnings) is left out: the rule reads "e.g." or a quoted
 * "http" as the start of a sentence, and sentence case is about labels, not paragraphs.
 */
const PROSE = "p, .setting-item-description, [class*='description'], [class*='hint'], [class*='warning']";

/** Every label under `root`: each text node outside prose, and the accessible names, tooltips and placeholders. */
function uiTexts(root: Element, leaveOut: (text: string) => boolean = () => false): string[] {
  const texts = new Set<string>();
  const add = (text: string | null | undefined) => {
    const trimmed = text?.replace(/\s+/g, " ").trim();
    if (trimmed && /[A-Za-z]/.test(trimmed) && !leaveOut(trimmed)) texts.add(trimmed);
  };
  for (const element of [root, ...root.querySelectorAll("*")]) {
    for (const attribute of LABEL_ATTRIBUTES) add(element.getAttribute(attribute));
  }
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !parent.closest(PROSE) && !parent.closest("style, script")) add(node.textContent);
  }
  return [...texts].sort();
}

const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/vault-copilot" };
class TestPlugin extends Plugin {}

describe("UI text in sentence case", () => {
  afterEach(() => document.body.replaceChildren());

  it("the rule refuses title case and keeps the names it is told to keep", () => {
    expect(
      refusedBySentenceCase([
        "Open Chat View",
        "Ask Vault QA with OpenAI, Ollama or MCP servers",
        "Insert at cursor",
        "Use Read note",
        "161 ms",
        "2 Notes Found",
        "copilot/chats",
        "Найти заметки 笔记 😀",
        "Re\u0301sume\u0301 Notes",
      ]),
    ).toEqual([
      { text: "Open Chat View", suggestion: "Open chat view" },
      { text: "2 Notes Found", suggestion: "2 Notes found" },
      { text: "Re\u0301sume\u0301 Notes", suggestion: "Re\u0301sume\u0301 notes" },
    ]);
  });

  it("in every section of the settings tab, with every built-in tool listed", async () => {
    const app = new App();
    const plugin = new TestPlugin(app, manifest);
    const store = await SettingsStore.load({
      file: pluginSettingsFile(plugin as unknown as ObsidianPlugin),
      secrets: new ObsidianSecretStore(app.secretStorage),
      notify: () => undefined,
    });
    await store.update((settings) => ({
      ...settings,
      embeddings: { ...settings.embeddings, enabled: true },
      webSearch: { ...settings.webSearch, provider: "brave" },
      mcpServers: [{ name: "files", enabled: true, transport: "stdio", command: "npx", args: [], env: {} }],
    }));
    const registry = new ToolRegistry();
    initializeBuiltinTools(registry, makeToolDependencies({ settings: DEFAULT_SETTINGS }));
    const tab = new VaultCopilotSettingTab(app as unknown as ObsidianApp, plugin as unknown as ObsidianPlugin, store, registry);
    document.body.appendChild(tab.containerEl);
    const olderObsidian: { display(): void } = tab;
    act(() => olderObsidian.display());

    // The MCP server's name is the user's, as they typed it.
    const texts = uiTexts(tab.containerEl, (text) => text === "files");
    expect(texts).toEqual(expect.arrayContaining(["Model provider", "Agent tools", "MCP servers"]));
    expect(texts.length).toBeGreaterThan(60);
    expect(refusedBySentenceCase(texts)).toEqual([]);
  });

  describe("in the chat view", () => {
    const session = chatViewSession({ settings: { defaultMode: "agent" } });

    it("with an answer, a tool call and the history panel open", async () => {
      await session.open(
        [
          { toolCalls: [{ name: "getCurrentTime", arguments: "{}" }] },
          { text: "It is **late**; see [[Плановые заметки]]." },
        ],
        { notes: { "Плановые заметки.md": "# План\n\nзаметка" } },
      );
      const box = screen.getByRole("textbox", { name: "Message" });
      fireEvent.change(box, { target: { value: "what time is it?" } });
      fireEvent.keyDown(box, { key: "Enter" });
      // Bounds for a loaded machine, not measurements: the waits end as soon as the view shows it.
      const patiently = { timeout: 20_000 };
      await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy(), patiently);
      await waitFor(() => expect(screen.getByRole("log", { name: "Conversation" }).textContent).toContain("late"), patiently);

      // What the person, the model and the tools wrote is theirs, not UI text (the time tool's result
      // names its weekday and time zone, and its banner's summary quotes it).
      const written = (text: string) => /what time is it|late|see|Плановые|getCurrentTime|gpt-|test-model|Europe\/Berlin|\d{4}-\d{2}-\d{2} \d{2}:\d{2}|\(UTC\)/i.test(text);
      const conversation = uiTexts(document.body, written);
      act(() => screen.getByRole("button", { name: "Chat history" }).click());
      await waitFor(() => expect(screen.getByRole("region", { name: "Saved chats" })).toBeTruthy(), patiently);
      const texts = [...new Set([...conversation, ...uiTexts(document.body, written)])];
      expect(texts).toEqual(expect.arrayContaining(["Send", "New chat", "Chat history", "Copy", "Saved chats"]));
      expect(refusedBySentenceCase(texts)).toEqual([]);
    }, 60_000);
  });
});

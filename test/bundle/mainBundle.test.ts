/**
 * Mobile Obsidian gives a plugin a web page's globals, `obsidian` and the CodeMirror packages its
 * editor is made of, nothing else: no `process`, no `require` for Node modules. This builds
 * main.js as the release does (without minifying, to stay fast), loads it in a realm that has
 * only that, and runs its onload against the Obsidian double (bundled into the same realm, over
 * the same CodeMirror modules main.js gets). A Node module on main.js's load path fails here.
 */
import { build, type Metafile } from "esbuild";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import vm from "node:vm";
import { obsidianExternals, pluginBuildOptions } from "../../esbuild.options";
import type * as Double from "../obsidian/obsidian";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { loadMainJs, type LoadedBundle } from "./mobileRealm";

const repoRoot = resolve(__dirname, "../..");
const CHAT_VIEW_TYPE = "vault-copilot-chat-view";
const RELATED_VIEW_TYPE = "vault-copilot-related-view";

/**
 * Node built-ins main.js may require, and only lazily on desktop: the MCP stdio transport
 * (src/mcp/node/stdioTransport.ts, imported behind Platform.isDesktop) spawns servers through the
 * SDK's stdio client and cross-spawn. Only the modules on that path may import them
 * (DESKTOP_ONLY_IMPORTERS), and main.js must still load in the realm below without them.
 */
const DESKTOP_ONLY_NODE_IMPORTS: readonly string[] = ["child_process", "node:process", "node:stream", "fs", "path"];
const DESKTOP_ONLY_IMPORTERS = /(^|\/)(cross-spawn|which|isexe)\/|@modelcontextprotocol\/sdk\/dist\/[^/]+\/client\/stdio\.js$/;

async function buildAndLoad(outdir: string): Promise<LoadedBundle & { metafile: Metafile }> {
  const result = await build({
    ...pluginBuildOptions(true),
    minify: false,
    absWorkingDir: repoRoot,
    outfile: join(outdir, "main.js"),
    logLevel: "silent",
    metafile: true,
  });
  return { ...(await loadMainJs(readFileSync(join(outdir, "main.js"), "utf8"))), metafile: result.metafile };
}

/** Waits for React, which renders on the realm's own timers. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe("main.js on nothing but web globals and obsidian (what mobile gives it)", () => {
  let outdir: string;
  let loaded: LoadedBundle & { metafile: Metafile };
  const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/vault-copilot" };

  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), "vault-copilot-bundle-"));
    loaded = await buildAndLoad(outdir);
  });

  afterAll(() => {
    loaded?.close();
    rmSync(outdir, { recursive: true, force: true });
  });

  it("the realm really lacks Node: no process, no require, no Buffer", () => {
    expect(vm.runInContext("[typeof process, typeof require, typeof Buffer, typeof module, typeof window, typeof document]", loaded.realm)).toEqual(
      ["undefined", "undefined", "undefined", "undefined", "object", "object"],
    );
  });

  it("imports Node built-ins only on the lazy, desktop-only MCP stdio path, and nothing else from outside", () => {
    const external = Object.values(loaded.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
    const nodeModules = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    expect(external.filter((path) => nodeModules.has(path) && !DESKTOP_ONLY_NODE_IMPORTS.includes(path))).toEqual([]);
    expect(external.filter((path) => !nodeModules.has(path) && !obsidianExternals.includes(path))).toEqual([]);
    const importers = Object.entries(loaded.metafile.inputs)
      .filter(([, input]) => input.imports.some((entry) => entry.external && nodeModules.has(entry.path)))
      .map(([path]) => path);
    expect(importers.filter((path) => !DESKTOP_ONLY_IMPORTERS.test(path))).toEqual([]);
  });

  it("bundles none of CodeMirror: the editor's packages are Obsidian's own, required at run time", () => {
    const bundled = Object.keys(loaded.metafile.inputs).filter((path) => /node_modules\/@(codemirror|lezer)\//.test(path));
    expect(bundled).toEqual([]);
    const external = Object.values(loaded.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
    expect(external).toEqual(expect.arrayContaining(["@codemirror/state", "@codemirror/view"]));
  });

  it("evaluates, asks only for obsidian and the editor's CodeMirror packages, and exports a Plugin subclass", () => {
    expect(new Set(loaded.requested)).toEqual(new Set(["obsidian", "@codemirror/state", "@codemirror/view"]));
    expect(typeof loaded.pluginClass).toBe("function");
    expect(loaded.pluginClass.prototype).toBeInstanceOf(loaded.obsidian.Plugin);
  });

  it("onload registers the chat and related-notes views, their commands, the ribbon icon and the settings tab; unload undoes them", async () => {
    const app = new loaded.obsidian.App();
    const plugin = new loaded.pluginClass(app, manifest);
    await plugin.enable();
    expect([...plugin.registered.views]).toEqual([CHAT_VIEW_TYPE, RELATED_VIEW_TYPE]);
    expect([...plugin.registered.commands.keys()]).toEqual(expect.arrayContaining(["vault-copilot:open-chat", "vault-copilot:open-related-notes"]));
    expect(plugin.registered.settingTabs).toHaveLength(1);
    expect(plugin.registered.ribbonIcons.map((icon) => icon.title)).toEqual(["Open Copilot chat"]);
    // The settings were saved once, as defaults, and hold no secret.
    const saved = await app.vault.adapter.read(".obsidian/plugins/vault-copilot/data.json");
    expect(JSON.parse(saved)).toMatchObject({ settingsVersion: expect.any(Number) });

    plugin.unload();
    expect(plugin.registered.views.size).toBe(0);
    expect(plugin.registered.commands.size).toBe(0);
    expect(plugin.registered.settingTabs).toHaveLength(0);
  });

  it("the open-related-notes command opens the Related notes view, which lists the open note's neighbours", async () => {
    const app = new loaded.obsidian.App();
    app.vault.seedFile("Garden/Tomatoes.md", "# Tomatoes\n\nTomatoes need compost and watering.\n", { ctime: 1, mtime: 1 });
    app.vault.seedFile("Garden/Compost.md", "# Compost\n\nCompost for tomatoes; turn the compost weekly.\n", { ctime: 1, mtime: 1 });
    app.vault.seedFile("Money/Budget.md", "# Budget\n\nRent and savings.\n", { ctime: 1, mtime: 1 });
    const plugin = new loaded.pluginClass(app, manifest);
    await plugin.enable();
    await plugin.registered.commands.get("vault-copilot:open-related-notes")!.callback!();
    await until(() => app.workspace.getLeavesOfType(RELATED_VIEW_TYPE).length === 1, "the related-notes leaf");
    const content = (app.workspace.getLeavesOfType(RELATED_VIEW_TYPE)[0]!.view as Double.ItemView).contentEl;
    await app.workspace.openFile(app.vault.getAbstractFileByPath("Garden/Tomatoes.md") as never);
    await until(() => content.querySelector(".vault-copilot-related-item a")?.textContent === "Compost", "Compost listed as related");
    plugin.unload();
  });

  it("the open-chat command opens the chat view in a leaf, its React root renders, and closing unmounts it", async () => {
    const app = new loaded.obsidian.App();
    const plugin = new loaded.pluginClass(app, manifest);
    await plugin.enable();
    await plugin.registered.commands.get("vault-copilot:open-chat")!.callback!();
    await until(() => app.workspace.getLeavesOfType(CHAT_VIEW_TYPE).length === 1, "the chat leaf");
    const leaf = app.workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0]!;
    const content = (leaf.view as Double.ItemView).contentEl;
    await until(() => content.querySelector('textarea[aria-label="Message"]') !== null, "the chat view to render");
    // A fresh install's model is not known to take tools yet: a new chat starts in Chat.
    expect(content.querySelector<HTMLSelectElement>('select[aria-label="Mode"]')?.value).toBe("chat");
    expect(content.querySelector('[role="log"][aria-label="Conversation"]')).not.toBeNull();
    expect(app.workspace.revealedLeaves).toContain(leaf);

    await leaf.close();
    expect(content.childElementCount).toBe(0);
    plugin.unload();
  });

  it("the add-selection command, run from the palette on an editor's selection, opens the chat with that selection as a chip", async () => {
    const app = new loaded.obsidian.App();
    const plugin = new loaded.pluginClass(app, manifest);
    await plugin.enable();
    await app.vault.createFolder("Notes");
    const file = await app.vault.create("Notes/Long.md", "one\ntwo\nthree\nfour");
    await app.workspace.openFile(file);
    app.workspace.getActiveViewOfType(loaded.obsidian.MarkdownView)!.editor.setSelection({ line: 1, ch: 0 }, { line: 2, ch: 5 });
    expect(await plugin.runCommand("add-selection-to-chat")).toBe(true);
    await until(() => app.workspace.getLeavesOfType(CHAT_VIEW_TYPE).length === 1, "the chat leaf");
    const content = (app.workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0]!.view as Double.ItemView).contentEl;
    await until(() => (content.querySelector('[aria-label="Context for the next message"]')?.textContent ?? "").includes("Long (lines 2–3)"), "the selection's chip");
    // Without a selection the command is not offered.
    app.workspace.getActiveViewOfType(loaded.obsidian.MarkdownView)!.editor.setSelection({ line: 0, ch: 0 }, { line: 0, ch: 0 });
    expect(await plugin.runCommand("add-selection-to-chat")).toBe(false);
    plugin.unload();
  });

  it("one agent turn against the scripted server, on web globals only: the answer streams, a tool call runs and its result goes back", async () => {
    // A phone: no desktop app, so no Electron `window.require`; the model client goes through
    // requestUrl (src/net/obsidianFetch.ts), which the double builds on the realm's fetch.
    const desktop = { ...loaded.obsidian.Platform };
    Object.assign(loaded.obsidian.Platform, { isDesktop: false, isDesktopApp: false, isMobile: true, isMobileApp: true, isPhone: true, isLinux: false });
    let server: OpenAIServer | undefined;
    try {
      server = await startOpenAIServer([
        { toolCalls: [{ name: "getCurrentTime", arguments: "{}" }] },
        { text: "It is tea time on the phone.", chunkSize: 4 },
      ]);
      const app = new loaded.obsidian.App();
      await app.vault.adapter.mkdir(".obsidian/plugins/vault-copilot");
      await app.vault.adapter.write(
        ".obsidian/plugins/vault-copilot/data.json",
        JSON.stringify({
          settingsVersion: 2,
          provider: { preset: "custom", baseUrl: server.baseUrl, model: "mobile-model", apiKeySecretId: "" },
          // Known to take tools (as after Test connection), so the chat starts in Agent.
          modelToolSupport: { [`custom ${server.baseUrl} mobile-model`]: true },
        }),
      );
      const plugin = new loaded.pluginClass(app, manifest);
      await plugin.enable();
      await plugin.registered.commands.get("vault-copilot:open-chat")!.callback!();
      await until(() => app.workspace.getLeavesOfType(CHAT_VIEW_TYPE).length === 1, "the chat leaf");
      const content = (app.workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0]!.view as Double.ItemView).contentEl;
      await until(() => content.querySelector('textarea[aria-label="Message"]') !== null, "the chat view to render");

      // Typed and sent as a person would, with the realm's own events (React listens at its root).
      const textbox = content.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')!;
      const realmWindow = vm.runInContext("window", loaded.realm) as typeof globalThis & Window;
      Object.getOwnPropertyDescriptor(realmWindow.HTMLTextAreaElement.prototype, "value")!.set!.call(textbox, "What time is it?");
      textbox.dispatchEvent(new realmWindow.Event("input", { bubbles: true }));
      // On a phone Enter writes a new line; the Send button sends.
      await until(() => [...content.querySelectorAll("button")].some((button) => button.textContent === "Send" && !button.disabled), "Send to be enabled");
      [...content.querySelectorAll("button")].find((button) => button.textContent === "Send")!.dispatchEvent(new realmWindow.MouseEvent("click", { bubbles: true }));

      const answers = () => [...content.querySelectorAll('article[aria-label="Copilot"]')].map((article) => article.textContent ?? "");
      await until(() => answers().some((text) => text.includes("It is tea time on the phone.")), "the streamed answer in the Copilot article");
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.body.stream).toBe(true);
      expect(server.requests[0]!.body.model).toBe("mobile-model");
      expect(server.requests[0]!.body.tools?.map((tool) => tool.function.name)).toContain("getCurrentTime");
      const toolResult = server.requests[1]!.body.messages.find((message) => message.role === "tool");
      expect(toolResult).toBeDefined();
      expect(JSON.stringify(toolResult!.content)).toMatch(/\d{4}/);
      plugin.unload();
    } finally {
      Object.assign(loaded.obsidian.Platform, desktop);
      await server?.close();
    }
  });

  it("the settings tab draws its rows and the tool list from the registry", async () => {
    const app = new loaded.obsidian.App();
    const plugin = new loaded.pluginClass(app, manifest);
    await plugin.enable();
    const tab = plugin.registered.settingTabs[0]!;
    tab.display();
    const names = [...tab.containerEl.querySelectorAll(".setting-item-name")].map((element) => element.textContent);
    expect(names).toEqual(expect.arrayContaining(["Model provider", "Base URL", "API key", "Agent tools"]));
    await until(() => tab.containerEl.querySelector("[data-tool-id]") !== null, "the tool list to render");
    expect(tab.containerEl.querySelector('[data-tool-id="readNote"]')).not.toBeNull();
    tab.hide();
    plugin.unload();
  });
});

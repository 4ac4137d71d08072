/**
 * The browser demo's page (served and bundled by scripts/demo.mjs, whose header says why it is
 * built this way): the Obsidian double with the folder's notes, main.js loaded as Obsidian loads
 * it, the plugin enabled with the demo's provider settings and the chat view in the right sidebar.
 *
 * For tests: `window.app` is the double's App; `window.demo` has the plugin, the double
 * (`obsidian`), `canaryCalls` (with `?canary=1`), `keyboard` (with `?keyboard=N`),
 * `openSettings()` (the plugin's settings tab in a settings window) and `ready` (settles when the
 * chat view is open);
 * `document.body.dataset.demo` becomes "ready" or "failed". The performance entries
 * "demo:plugin-onload" (a measure) and "demo:open-chat" (a mark) are for bench/chat.
 */
import * as codemirrorState from "@codemirror/state";
import * as codemirrorView from "@codemirror/view";
import { DEFAULT_SETTINGS, PLUGIN_ID } from "../../src/constants";
import type { CopilotSettings } from "../../src/settings/settingsSchema";
import { toolSupportKey } from "../../src/LLMProviders/modelChoice";
import * as obsidian from "../obsidian/obsidian";
import { App, normalizePath, Platform, type Plugin } from "../obsidian/obsidian";
import { showDemoChrome } from "./demoChrome";
import { installSettingsWindow } from "./settingsWindow";
import { diskMirror, loadListing } from "./diskMirror";
import { demoRequire } from "./nodeHttpShim";
import { keepMetadataCurrent } from "./noteMetadata";
import { routeModelRequestsThroughProxy } from "./proxiedFetch";
import { enableCanaryPlugin, type CanaryCall } from "./canaryPlugin";
import { simulateOnScreenKeyboard, type SimulatedKeyboard } from "./onScreenKeyboard";

interface DemoConfig {
  vaultName: string;
  baseUrl: string;
  model: string;
  /** What is known of the model's tool calling (the demo's --model-takes-tools), null when nothing. */
  modelTakesTools: boolean | null;
  modelTakesImages: boolean | null;
  /** The demo's --completion-model: inline completion on, with this model at the same base URL; null when off. */
  completionModel: string | null;
  manifest: obsidian.Plugin["manifest"];
}

export interface DemoHandle {
  plugin: Plugin | null;
  ready: Promise<void>;
  /** The Obsidian double the plugin runs on (e.g. `demo.obsidian.MarkdownRenderer`). */
  obsidian: typeof obsidian;
  /** With `?canary=1`: every time rendered Markdown reached code another plugin would run (see canaryPlugin.ts). */
  canaryCalls: CanaryCall[] | null;
  /** With `?keyboard=N`: the simulated on-screen keyboard (see onScreenKeyboard.ts). */
  keyboard: SimulatedKeyboard | null;
  /** Shows the plugin's settings tab in a settings window; returns what closes it. */
  openSettings(): () => void;
}

declare global {
  interface Window {
    app: App;
    demo: DemoHandle;
  }
}

const DEFAULT_SIDEBAR_WIDTH = 340;
/** The global scripts/demo.mjs assigns main.js's module function to, in `/main-module.js`. */
const MAIN_MODULE_GLOBAL = "vaultCopilotDemoMainModule";
type MainModule = (module: { exports: Record<string, unknown> }, exports: Record<string, unknown>, require: (name: string) => unknown) => void;

/**
 * `?theme=light|dark` (default dark), `?width=N` (the right sidebar's width in px), `?lang=xx`
 * (Obsidian's language: "zh", "ja", "pt-BR", …; default English), and
 * `?mobile=1`: Obsidian on a phone (no Node, so requests go through requestUrl; the sidebar is a
 * full-width drawer; Obsidian's body classes `is-mobile` and `is-phone`, which its stylesheet and
 * the plugin's key off). Touch events come from the browser: a phone, the browser's device
 * emulation, or a test's touch-enabled page. Returns whether the page acts as mobile.
 */
function applyPageOptions(): boolean {
  const parameters = new URLSearchParams(window.location.search);
  const mobile = parameters.get("mobile") === "1";
  if (mobile) document.body.addClass("is-mobile", "is-phone");
  const theme = parameters.get("theme") === "light" ? "light" : "dark";
  document.body.addClass(`theme-${theme}`);
  // `?lang=xx`: Obsidian's language, where Obsidian keeps it (getLanguage() reads it); none: English.
  const language = parameters.get("lang");
  if (language) window.localStorage.setItem("language", language);
  else window.localStorage.removeItem("language");
  const width = Number(parameters.get("width") ?? DEFAULT_SIDEBAR_WIDTH);
  document.body.style.setProperty("--demo-sidebar-width", `${Number.isFinite(width) && width > 0 ? width : DEFAULT_SIDEBAR_WIDTH}px`);
  return mobile;
}

/** What Obsidian gives a plugin's `require`: itself, and the CodeMirror packages its editor is made of (the very copies the double's editor uses). */
const PLUGIN_MODULES: Record<string, unknown> = { obsidian, "@codemirror/state": codemirrorState, "@codemirror/view": codemirrorView };

/**
 * The plugin's main.js as a CommonJS module whose only ways out are `require("obsidian")`, the
 * double, and the editor's CodeMirror packages. The server hands main.js wrapped in a function
 * (`/main-module.js`), so no eval is needed.
 */
async function loadPluginClass(): Promise<new (app: App, manifest: obsidian.Plugin["manifest"]) => Plugin> {
  await new Promise<void>((resolve, reject) => {
    const script = document.head.createEl("script", { attr: { src: "/main-module.js" } });
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => reject(new Error("main.js could not be loaded from the demo server")));
  });
  const wrapped = (window as unknown as Record<string, unknown>)[MAIN_MODULE_GLOBAL] as MainModule | undefined;
  if (!wrapped) throw new Error("main.js did not load as a module");
  const module = { exports: {} as Record<string, unknown> };
  wrapped(module, module.exports, (name) => {
    if (Object.hasOwn(PLUGIN_MODULES, name)) return PLUGIN_MODULES[name];
    throw new Error(`main.js asked for "${name}"; Obsidian gives a plugin only "obsidian" and its CodeMirror packages (Node modules come through window.require on desktop)`);
  });
  return module.exports.default as new (app: App, manifest: obsidian.Plugin["manifest"]) => Plugin;
}

/** data.json as the demo wants it: the "custom" preset at the demo's base URL and model, no stored key (the proxy adds it). */
function demoSettings(config: DemoConfig): CopilotSettings {
  const provider = { ...DEFAULT_SETTINGS.provider, preset: "custom" as const, baseUrl: config.baseUrl, model: config.model, apiKeySecretId: "" };
  const modelToolSupport = config.modelTakesTools === null ? {} : { [toolSupportKey(provider)]: config.modelTakesTools };
  const completion = config.completionModel
    ? { ...DEFAULT_SETTINGS.completion, enabled: true, model: { ...DEFAULT_SETTINGS.completion.model, preset: "custom" as const, baseUrl: config.baseUrl, model: config.completionModel } }
    : DEFAULT_SETTINGS.completion;
  const modelImageSupport = config.modelTakesImages === null ? {} : { [toolSupportKey(provider)]: config.modelTakesImages };
  return { ...DEFAULT_SETTINGS, provider, modelToolSupport, modelImageSupport, completion };
}

/** `?keyboard=N`: a simulated on-screen keyboard N px high (none when absent or not a positive number). */
function keyboardOption(): SimulatedKeyboard | null {
  const height = Number(new URLSearchParams(window.location.search).get("keyboard") ?? "");
  return Number.isInteger(height) && height > 0 ? simulateOnScreenKeyboard(height) : null;
}

async function start(handle: DemoHandle): Promise<void> {
  const mobile = applyPageOptions();
  // Before the plugin's view opens, so the view follows the stand-in visual viewport.
  handle.keyboard = keyboardOption();
  const config = (await (await fetch("/api/config")).json()) as DemoConfig;
  document.title = `${config.vaultName} · Vault Copilot demo`;
  routeModelRequestsThroughProxy(config.baseUrl);

  if (mobile) {
    Object.assign(Platform, { isDesktop: false, isDesktopApp: false, isMobile: true, isMobileApp: true, isPhone: true });
  } else {
    // Desktop, with Node's http reachable the way Electron gives it (through the demo's proxy).
    Object.assign(Platform, { isDesktop: true, isDesktopApp: true, isMobile: false, isMobileApp: false, isPhone: false });
    // Electron's window.require is Node's require; the page's has only http and https.
    (window as unknown as { require: (id: string) => unknown }).require = demoRequire;
  }

  const app = new App({ name: config.vaultName, mirror: diskMirror });
  window.app = app;
  const listing = await loadListing();
  for (const folder of listing.folders) app.vault.seedFolder(folder);
  for (const note of listing.notes) app.vault.seedFile(note.path, note.text, note);
  for (const file of listing.files) app.vault.seedFile(file.path, Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0)).buffer, file);
  keepMetadataCurrent(app);
  if (new URLSearchParams(window.location.search).get("canary") === "1") handle.canaryCalls = await enableCanaryPlugin(app);

  const manifest = { ...config.manifest, dir: normalizePath(`${app.vault.configDir}/plugins/${PLUGIN_ID}`) };
  await app.vault.adapter.mkdir(manifest.dir);
  await app.vault.adapter.write(`${manifest.dir}/data.json`, JSON.stringify(demoSettings(config), null, 2));

  const PluginClass = await loadPluginClass();
  const plugin = new PluginClass(app, manifest);
  handle.plugin = plugin;
  // Performance marks for bench/chat: the plugin's onload, and when the chat view was asked to open.
  performance.mark("demo:plugin-enable");
  await plugin.enable();
  performance.measure("demo:plugin-onload", "demo:plugin-enable");
  app.workspace.finishLayout();

  document.body.createDiv("app-container").appendChild(app.workspace.containerEl);
  const settingsWindow = installSettingsWindow(app, plugin);
  handle.openSettings = () => {
    settingsWindow.open();
    return () => settingsWindow.close();
  };
  showDemoChrome(app, plugin, settingsWindow);
  const firstNote = app.vault.getFileByPath("Welcome.md") ?? app.vault.getMarkdownFiles().sort((a, b) => a.path.localeCompare(b.path))[0];
  if (firstNote) await app.workspace.openFile(firstNote);
  performance.mark("demo:open-chat");
  if (!(await plugin.runCommand("open-chat"))) throw new Error("The plugin has no open-chat command");
}

const handle: DemoHandle = {
  plugin: null,
  ready: Promise.resolve(),
  obsidian,
  canaryCalls: null,
  keyboard: null,
  openSettings: () => {
    throw new Error("The demo has not loaded the plugin yet");
  },
};
window.demo = handle;
handle.ready = start(handle).then(
  () => {
    document.body.dataset.demo = "ready";
  },
  (error: unknown) => {
    document.body.dataset.demo = "failed";
    document.body.createEl("pre", { cls: "demo-failure", text: `The demo could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` });
    console.error("The demo could not start", error);
  },
);

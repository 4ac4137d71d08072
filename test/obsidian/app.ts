import type { Extension } from "@codemirror/state";
import type * as Obsidian from "obsidian";
import { Component, Events, type Fits } from "./events";
import type { PluginSettingTab } from "./setting";
import { MarkdownView } from "./markdownView";
import type { CodeBlockProcessor } from "./markdownRenderer";
import { FileManager, MetadataCache } from "./metadataCache";
import { normalizePath, Vault, type VaultOptions } from "./vault";
import { requireDocument } from "./view";
import { Workspace, type ViewCreator } from "./workspace";

const SECRET_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Obsidian's SecretStorage (1.11.4+), in memory, with the same id rule. */
export class SecretStorage extends Events implements Pick<Obsidian.SecretStorage, "setSecret" | "getSecret" | "listSecrets"> {
  private readonly secrets = new Map<string, string>();

  setSecret(id: string, secret: string): void {
    if (!SECRET_ID.test(id)) throw new Error(`Invalid secret ID "${id}": use lowercase letters, digits and dashes`);
    this.secrets.set(id, secret);
  }

  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }

  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}

export class App {
  readonly vault: Vault;
  readonly metadataCache: MetadataCache;
  readonly fileManager: FileManager;
  readonly workspace: Workspace;
  readonly secretStorage = new SecretStorage();
  /** Code block processors plugins registered, by language; MarkdownRenderer uses them (double only). */
  readonly markdownCodeBlockProcessors = new Map<string, CodeBlockProcessor>();
  /** Post processors plugins registered (Dataview's inline queries are one); MarkdownRenderer runs each on every render (double only). */
  readonly markdownPostProcessors: Obsidian.MarkdownPostProcessor[] = [];

  constructor(options: VaultOptions = {}) {
    this.vault = new Vault(options);
    this.metadataCache = new MetadataCache(this.vault);
    this.fileManager = new FileManager(this.vault);
    this.workspace = new Workspace(this);
  }
}

export interface RibbonIcon {
  icon: string;
  title: string;
  element: HTMLElement;
}

/**
 * Obsidian's Plugin. What it registers is kept in `registered` (double only) so tests can check
 * the wiring, and undone on `unload()` as Obsidian undoes it.
 */
export class Plugin
  extends Component
  implements
    Pick<Obsidian.Plugin, "manifest" | "addCommand" | "removeCommand" | "addRibbonIcon" | "addStatusBarItem" | "loadData" | "saveData" | "registerMarkdownCodeBlockProcessor" | "registerHoverLinkSource" | "registerEditorExtension">
{
  readonly registered = {
    commands: new Map<string, Obsidian.Command>(),
    views: new Set<string>(),
    settingTabs: [] as PluginSettingTab[],
    ribbonIcons: [] as RibbonIcon[],
    statusBarItems: [] as HTMLElement[],
    hoverLinkSources: new Map<string, Obsidian.HoverLinkSource>(),
  };

  constructor(
    readonly app: App,
    readonly manifest: Obsidian.PluginManifest,
  ) {
    super();
  }

  /**
   * What Obsidian does when it enables the plugin: marks it loaded and waits for its (possibly
   * async) `onload`, so a later `unload()` undoes what it registered (double only).
   */
  async enable(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    await this.onload();
  }

  /** Every editor opened from now on carries `extension` (Obsidian also reconfigures open ones; the double's notes open after the plugin loads). */
  registerEditorExtension(extension: Extension): void {
    const extensions = this.app.workspace.editorExtensions;
    extensions.push(extension);
    this.register(() => extensions.splice(extensions.indexOf(extension), 1));
  }

  addCommand(command: Obsidian.Command): Obsidian.Command {
    // Obsidian prefixes the id with the plugin's id.
    const registered = { ...command, id: `${this.manifest.id}:${command.id}` };
    this.registered.commands.set(registered.id, registered);
    this.register(() => this.registered.commands.delete(registered.id));
    return registered;
  }

  removeCommand(commandId: string): void {
    this.registered.commands.delete(`${this.manifest.id}:${commandId}`);
  }

  /**
   * Runs a command as the command palette would (double only): `id` with or without the plugin's
   * prefix. Editor commands get the active MarkdownView's editor, and are unavailable without one.
   * Returns false when the command is unknown or not available now.
   */
  async runCommand(id: string): Promise<boolean> {
    const command = this.registered.commands.get(id) ?? this.registered.commands.get(`${this.manifest.id}:${id}`);
    if (!command) return false;
    const activeView = this.app.workspace.activeLeaf?.view;
    const view = activeView instanceof MarkdownView ? activeView : null;
    const editorArguments = view ? ([view.editor, view] as unknown as [Obsidian.Editor, Obsidian.MarkdownView]) : null;
    if (command.editorCheckCallback) {
      if (!editorArguments || command.editorCheckCallback(true, ...editorArguments) === false) return false;
      command.editorCheckCallback(false, ...editorArguments);
      return true;
    }
    if (command.editorCallback) {
      if (!editorArguments) return false;
      await command.editorCallback(...editorArguments);
      return true;
    }
    if (command.checkCallback) {
      if (command.checkCallback(true) === false) return false;
      command.checkCallback(false);
      return true;
    }
    await command.callback?.();
    return true;
  }

  /** Kept in `registered.hoverLinkSources` (Obsidian's page preview lists it in its settings). */
  registerHoverLinkSource(id: string, info: Obsidian.HoverLinkSource): void {
    this.registered.hoverLinkSources.set(id, info);
    this.register(() => this.registered.hoverLinkSources.delete(id));
  }

  registerMarkdownCodeBlockProcessor(
    language: string,
    handler: CodeBlockProcessor,
    sortOrder?: number,
  ): Obsidian.MarkdownPostProcessor {
    const processors = this.app.markdownCodeBlockProcessors;
    if (processors.has(language)) throw new Error(`A code block processor for "${language}" is already registered`);
    processors.set(language, handler);
    this.register(() => {
      if (processors.get(language) === handler) processors.delete(language);
    });
    const postProcessor: Obsidian.MarkdownPostProcessor = (el, ctx) => {
      for (const code of el.querySelectorAll<HTMLElement>(`pre > code.language-${language}`)) {
        const block = code.ownerDocument.createElement("div");
        block.className = `block-language-${language}`;
        code.parentElement!.replaceWith(block);
        void handler((code.textContent ?? "").replace(/\n$/, ""), block, ctx);
      }
    };
    postProcessor.sortOrder = sortOrder;
    return postProcessor;
  }

  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const element = requireDocument("a ribbon icon").createElement("div");
    element.className = "side-dock-ribbon-action clickable-icon";
    element.setAttribute("aria-label", title);
    element.addEventListener("click", (event) => void callback(event));
    const entry = { icon, title, element };
    this.registered.ribbonIcons.push(entry);
    this.register(() => this.registered.ribbonIcons.splice(this.registered.ribbonIcons.indexOf(entry), 1));
    return element;
  }

  addStatusBarItem(): HTMLElement {
    const element = requireDocument("a status bar item").createElement("div");
    element.className = "status-bar-item";
    this.registered.statusBarItems.push(element);
    this.register(() => element.remove());
    return element;
  }

  addSettingTab(settingTab: PluginSettingTab): void {
    this.registered.settingTabs.push(settingTab);
    settingTab.update();
    this.register(() => this.registered.settingTabs.splice(this.registered.settingTabs.indexOf(settingTab), 1));
  }

  registerView(type: string, viewCreator: ViewCreator): void {
    this.app.workspace.registerViewType(type, viewCreator);
    this.registered.views.add(type);
    this.register(() => {
      this.app.workspace.detachLeavesOfType(type);
      this.app.workspace.unregisterViewType(type);
      this.registered.views.delete(type);
    });
  }

  /** `data.json` in the plugin's folder; like Obsidian's, it throws when the file is not JSON. */
  async loadData(): Promise<unknown> {
    const path = this.dataPath();
    if (!(await this.app.vault.adapter.exists(path))) return null;
    return JSON.parse(await this.app.vault.adapter.read(path)) as unknown;
  }

  async saveData(data: unknown): Promise<void> {
    const folder = this.pluginFolder();
    if (!(await this.app.vault.adapter.exists(folder))) await this.app.vault.adapter.mkdir(folder);
    await this.app.vault.adapter.write(this.dataPath(), JSON.stringify(data, null, 2));
  }

  /** Runs on everything MarkdownRenderer renders, in `sortOrder`, until the plugin unloads. */
  registerMarkdownPostProcessor(postProcessor: Obsidian.MarkdownPostProcessor, sortOrder?: number): Obsidian.MarkdownPostProcessor {
    if (sortOrder !== undefined) postProcessor.sortOrder = sortOrder;
    const processors = this.app.markdownPostProcessors;
    processors.push(postProcessor);
    this.register(() => {
      const index = processors.indexOf(postProcessor);
      if (index !== -1) processors.splice(index, 1);
    });
    return postProcessor;
  }

  private pluginFolder(): string {
    return this.manifest.dir ?? normalizePath(`${this.app.vault.configDir}/plugins/${this.manifest.id}`);
  }

  private dataPath(): string {
    return normalizePath(`${this.pluginFolder()}/data.json`);
  }
}

/** A desktop app on Linux; tests may change the fields to act as mobile. */
export const Platform: typeof Obsidian.Platform = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: false,
  isWin: false,
  isLinux: true,
  isSafari: false,
  resourcePathPrefix: "app://obsidian-double/",
};

/** Obsidian's requestUrl on fetch: no CORS in Obsidian, none in Node either; throws on status >= 400 unless `throw: false`. */
export function requestUrl(request: Obsidian.RequestUrlParam | string): Obsidian.RequestUrlResponsePromise {
  const param = typeof request === "string" ? { url: request } : request;
  const response = (async (): Promise<Obsidian.RequestUrlResponse> => {
    const headers: Record<string, string> = { ...(param.headers ?? {}) };
    if (param.contentType) headers["content-type"] = param.contentType;
    const fetched = await fetch(param.url, { method: param.method ?? "GET", headers, body: param.body });
    const arrayBuffer = await fetched.arrayBuffer();
    const text = new TextDecoder().decode(arrayBuffer);
    const responseHeaders: Record<string, string> = {};
    fetched.headers.forEach((value, key) => (responseHeaders[key.toLowerCase()] = value));
    if (param.throw !== false && fetched.status >= 400) {
      throw Object.assign(new Error(`Request failed, status ${fetched.status}`), { status: fetched.status, headers: responseHeaders });
    }
    return {
      status: fetched.status,
      headers: responseHeaders,
      arrayBuffer,
      text,
      get json(): unknown {
        return JSON.parse(text) as unknown;
      },
    };
  })();
  // The shortcuts are made on first use, so an unused one cannot become an unhandled rejection.
  return Object.defineProperties(response, {
    arrayBuffer: { get: () => response.then((r) => r.arrayBuffer) },
    json: { get: () => response.then((r) => r.json as unknown) },
    text: { get: () => response.then((r) => r.text) },
  }) as Obsidian.RequestUrlResponsePromise;
}
export type RegisterMarkdownPostProcessorFits = Fits<Obsidian.Plugin["registerMarkdownPostProcessor"], Plugin["registerMarkdownPostProcessor"]>;
export type RequestUrlFits = Fits<typeof Obsidian.requestUrl, typeof requestUrl>;

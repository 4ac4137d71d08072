import type { Extension } from "@codemirror/state";
import type * as Obsidian from "obsidian";
import type { App } from "./app";
import { Events } from "./events";
import { MarkdownView, MARKDOWN_VIEW_TYPE } from "./markdownView";
import type { TFile } from "./vault";
import { ItemView, View } from "./view";

export { ItemView, View };
export type ViewCreator = (leaf: WorkspaceLeaf) => View;

/** Where a leaf lives: a sidebar or the main area. */
export type LeafPlace = "left" | "main" | "right";

export class WorkspaceLeaf extends Events implements Pick<Obsidian.WorkspaceLeaf, "getViewState" | "getDisplayText" | "getIcon"> {
  view: View | null = null;
  private viewType = "empty";
  private element: HTMLElement | null = null;

  constructor(
    readonly app: App,
    private readonly workspace: Workspace,
    /** The sidebar or main area the leaf is in (double only). */
    readonly place: LeafPlace = "main",
  ) {
    super();
  }

  /** The leaf's element, in its split of the workspace element; holds the view's `containerEl` (double only). */
  get containerEl(): HTMLElement {
    this.element ??= requireDocumentForLeaf().createElement("div");
    this.element.className = "workspace-leaf";
    return this.element;
  }

  getViewState(): Obsidian.ViewState {
    return { type: this.viewType };
  }

  async setViewState(viewState: Obsidian.ViewState): Promise<void> {
    if (this.view) await this.view.closeInLeaf();
    this.view = null;
    this.viewType = viewState.type;
    const creator = this.workspace.viewCreator(viewState.type);
    if (!creator) return;
    this.view = creator(this);
    this.view.containerEl.setAttribute("data-type", viewState.type); // as Obsidian marks it
    // In the page before it opens, as in Obsidian, so the view is laid out when it renders.
    if (typeof document !== "undefined") {
      this.workspace.splitElement(this.place).appendChild(this.containerEl);
      this.containerEl.appendChild(this.view.containerEl);
    }
    await this.view.openInLeaf();
  }

  getDisplayText(): string {
    return this.view?.getDisplayText() ?? "";
  }

  getIcon(): string {
    return this.view?.getIcon() ?? "";
  }

  /** Closes the leaf; like Obsidian's, it returns before the view has finished closing. */
  detach(): void {
    void this.close();
  }

  /** `detach()` that can be awaited (double only). */
  async close(): Promise<void> {
    this.workspace.removeLeaf(this);
    if (this.view) await this.view.closeInLeaf();
    this.view = null;
    this.element?.remove();
  }
}

function requireDocumentForLeaf(): Document {
  if (typeof document === "undefined") throw new Error("The Obsidian double needs a DOM for a leaf's element");
  return document;
}

/** One of the workspace's sidebars. Its element is `containerEl` (Obsidian's is internal; double only). */
export class WorkspaceSidedock implements Pick<Obsidian.WorkspaceSidedock, "collapsed" | "toggle" | "collapse" | "expand"> {
  collapsed = false;

  constructor(
    private readonly workspace: Workspace,
    readonly side: "left" | "right",
  ) {}

  get containerEl(): HTMLElement {
    return this.workspace.splitElement(this.side);
  }

  toggle(): void {
    if (this.collapsed) this.expand();
    else this.collapse();
  }

  collapse(): void {
    this.collapsed = true;
    if (typeof document !== "undefined") this.containerEl.toggleClass("is-collapsed", true);
  }

  expand(): void {
    this.collapsed = false;
    if (typeof document !== "undefined") this.containerEl.toggleClass("is-collapsed", false);
  }
}

/** What `openLinkText` was asked (double only). */
export interface OpenedLink {
  linktext: string;
  sourcePath: string;
  newLeaf: Obsidian.PaneType | boolean | undefined;
}

/**
 * Leaves, view types, layout readiness, the active leaf and file, and opening links. Where a DOM
 * exists the workspace has an element (`containerEl`, put in `document.body` when a leaf first
 * shows a view) with a left sidebar, the main area and a right sidebar
 * (`.workspace-split.mod-left-split`, `.mod-root`, `.mod-right-split`); a leaf's view is shown
 * in its split, so it is visible and laid out. Markdown notes open in a MarkdownView.
 *
 * Unlike Obsidian, focusing a view does not make its leaf active: `setActiveLeaf` does.
 */
export class Workspace
  extends Events
  implements Pick<Obsidian.Workspace, "layoutReady" | "onLayoutReady" | "openLinkText" | "getActiveViewOfType">
{
  layoutReady = false;
  activeLeaf: WorkspaceLeaf | null = null;
  readonly leftSplit = new WorkspaceSidedock(this, "left");
  readonly rightSplit = new WorkspaceSidedock(this, "right");
  private readonly leaves: WorkspaceLeaf[] = [];
  private readonly viewCreators = new Map<string, ViewCreator>();
  private readonly layoutReadyCallbacks: (() => unknown)[] = [];
  private element: HTMLElement | null = null;
  private readonly splits = new Map<LeafPlace, HTMLElement>();
  /** The last leaf made active that showed a file: Obsidian's active file stays while a sidebar has focus. */
  private lastFileLeaf: WorkspaceLeaf | null = null;
  /** Leaves passed to `revealLeaf`, most recent last (double only). */
  readonly revealedLeaves: WorkspaceLeaf[] = [];
  /** Every `openLinkText` call, in order (double only). */
  readonly openedLinks: OpenedLink[] = [];
  /** The data of every "hover-link" event triggered, in order (double only). */
  readonly hoverLinks: unknown[] = [];
  /** What plugins gave `registerEditorExtension`; every MarkdownView's editor carries them (double only). */
  readonly editorExtensions: Extension[] = [];

  constructor(private readonly app: App) {
    super();
    this.viewCreators.set(MARKDOWN_VIEW_TYPE, (leaf) => new MarkdownView(leaf));
  }

  /** The workspace's element (made on first use; needs a DOM). */
  get containerEl(): HTMLElement {
    if (!this.element) {
      if (typeof document === "undefined") throw new Error("The Obsidian double needs a DOM for the workspace element");
      this.element = document.createElement("div");
      this.element.className = "workspace";
      for (const [place, cls] of [
        ["left", "workspace-split mod-horizontal mod-left-split"],
        ["main", "workspace-split mod-vertical mod-root"],
        ["right", "workspace-split mod-horizontal mod-right-split"],
      ] as const) {
        const split = this.element.createDiv(cls);
        this.splits.set(place, split);
      }
    }
    return this.element;
  }

  /** The element of a split, with the workspace element put in the page if it is not there (double only). */
  splitElement(place: LeafPlace): HTMLElement {
    const container = this.containerEl;
    if (!container.isConnected) document.body.appendChild(container);
    return this.splits.get(place)!;
  }

  override trigger(name: string, ...data: unknown[]): void {
    if (name === "hover-link") this.hoverLinks.push(data[0]);
    super.trigger(name, ...data);
  }

  setActiveLeaf(leaf: WorkspaceLeaf): void {
    if (this.activeLeaf === leaf) return;
    this.activeLeaf = leaf;
    if (fileOf(leaf)) this.lastFileLeaf = leaf;
    this.trigger("active-leaf-change", leaf);
  }

  /** Takes Obsidian's view classes (what plugin code passes) and the double's (what tests pass). */
  getActiveViewOfType<T>(type: abstract new (...args: never[]) => T): T | null {
    const view = this.activeLeaf?.view as unknown;
    return view instanceof type ? view : null;
  }

  /** The file of the active leaf, or of the last active one that showed a file (while a sidebar view is active). */
  getActiveFile(): TFile | null {
    const active = this.activeLeaf ? fileOf(this.activeLeaf) : null;
    if (active) return active;
    return this.lastFileLeaf && this.leaves.includes(this.lastFileLeaf) ? fileOf(this.lastFileLeaf) : null;
  }

  /**
   * Records the call and opens the note the link resolves to (heading and block parts ignored)
   * as the active file. Obsidian creates a note for an unresolved link; the double only records it.
   */
  async openLinkText(linktext: string, sourcePath: string, newLeaf?: Obsidian.PaneType | boolean, openViewState?: Obsidian.OpenViewState): Promise<void> {
    void openViewState;
    this.openedLinks.push({ linktext, sourcePath, newLeaf });
    const linkpath = linktext.split(/[#^|]/)[0] ?? "";
    const file = linkpath === "" ? this.app.vault.getFileByPath(sourcePath) : this.app.metadataCache.getFirstLinkpathDest(linkpath, sourcePath);
    if (file) await this.openFile(file, Boolean(newLeaf));
  }

  /**
   * Opens `file` in a MarkdownView in the main area (the most recent main leaf, or a new one) and
   * makes it the active file, with Obsidian's "file-open" and "active-leaf-change" events (double only).
   */
  async openFile(file: TFile, newLeaf = false): Promise<WorkspaceLeaf> {
    const leaf = this.getLeaf(newLeaf);
    if (!(leaf.view instanceof MarkdownView)) await leaf.setViewState({ type: MARKDOWN_VIEW_TYPE, active: true });
    await (leaf.view as MarkdownView).setFile(file);
    this.setActiveLeaf(leaf); // "active-leaf-change" only when another leaf becomes active
    this.lastFileLeaf = leaf;
    this.trigger("file-open", file);
    return leaf;
  }

  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.layoutReadyCallbacks.push(callback);
  }

  /** What Obsidian does once the workspace is laid out (double only: tests call it). */
  finishLayout(): void {
    this.layoutReady = true;
    for (const callback of this.layoutReadyCallbacks.splice(0)) callback();
    this.trigger("layout-change");
  }

  getLeavesOfType(viewType: string): WorkspaceLeaf[] {
    return this.leaves.filter((leaf) => leaf.getViewState().type === viewType);
  }

  getRightLeaf(split: boolean): WorkspaceLeaf {
    void split;
    return this.newLeaf("right");
  }

  getLeftLeaf(split: boolean): WorkspaceLeaf {
    void split;
    return this.newLeaf("left");
  }

  /** A new leaf in the main area when asked, else the most recent main leaf (or a new one when there is none). */
  getLeaf(newLeaf?: boolean | Obsidian.PaneType): WorkspaceLeaf {
    const recent = [this.activeLeaf, ...[...this.leaves].reverse()].find((leaf) => leaf && leaf.place === "main" && this.leaves.includes(leaf));
    return !newLeaf && recent ? recent : this.newLeaf("main");
  }

  revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    this.revealedLeaves.push(leaf);
    return Promise.resolve();
  }

  detachLeavesOfType(viewType: string): void {
    for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
  }

  iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
    for (const leaf of [...this.leaves]) callback(leaf);
  }

  /** Plugin.registerView lands here (double only). */
  registerViewType(type: string, creator: ViewCreator): void {
    if (this.viewCreators.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
    this.viewCreators.set(type, creator);
  }

  unregisterViewType(type: string): void {
    this.viewCreators.delete(type);
  }

  viewCreator(type: string): ViewCreator | undefined {
    return this.viewCreators.get(type);
  }

  removeLeaf(leaf: WorkspaceLeaf): void {
    const index = this.leaves.indexOf(leaf);
    if (index !== -1) this.leaves.splice(index, 1);
    if (this.activeLeaf === leaf) {
      this.activeLeaf = null;
      this.trigger("active-leaf-change", null);
    }
  }

  private newLeaf(place: LeafPlace): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, this, place);
    this.leaves.push(leaf);
    return leaf;
  }
}

function fileOf(leaf: WorkspaceLeaf): TFile | null {
  const view = leaf.view as { file?: TFile | null } | null;
  return view?.file ?? null;
}

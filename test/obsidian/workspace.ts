import type * as Obsidian from "obsidian";
import type { App } from "./app";
import { Component, Events } from "./events";

/** The document to build elements in; the parts of the double that draw need a DOM realm. */
export function requireDocument(what: string): Document {
  if (typeof document === "undefined") {
    throw new Error(`The Obsidian double needs a DOM for ${what}: run this test in the "dom" jest project (a .test.tsx file).`);
  }
  return document;
}

export type ViewCreator = (leaf: WorkspaceLeaf) => View;

/** A view in a leaf. `containerEl` holds a header and the content element, as Obsidian's do. */
export abstract class View extends Component implements Pick<Obsidian.View, "icon" | "navigation" | "getState" | "getIcon" | "onResize"> {
  app: App;
  icon = "";
  navigation = false;
  leaf: WorkspaceLeaf;
  containerEl: HTMLElement;

  constructor(leaf: WorkspaceLeaf) {
    super();
    this.leaf = leaf;
    this.app = leaf.app;
    this.containerEl = requireDocument("a view").createElement("div");
    this.containerEl.className = "workspace-leaf-content";
  }

  protected onOpen(): Promise<void> {
    return Promise.resolve();
  }

  protected onClose(): Promise<void> {
    return Promise.resolve();
  }

  abstract getViewType(): string;
  abstract getDisplayText(): string;

  getState(): Record<string, unknown> {
    return {};
  }

  getIcon(): string {
    return this.icon;
  }

  onResize(): void {}

  /** What the leaf does when it shows the view (double only; Obsidian's is internal). */
  async openInLeaf(): Promise<void> {
    this.load();
    await this.onOpen();
  }

  /** What the leaf does when it closes the view (double only). */
  async closeInLeaf(): Promise<void> {
    await this.onClose();
    this.unload();
  }
}

export abstract class ItemView extends View {
  contentEl: HTMLElement;

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.containerEl.createDiv("view-header");
    this.contentEl = this.containerEl.createDiv("view-content");
  }
}

export class WorkspaceLeaf extends Events implements Pick<Obsidian.WorkspaceLeaf, "getViewState" | "getDisplayText" | "getIcon"> {
  view: View | null = null;
  private viewType = "empty";

  constructor(
    readonly app: App,
    private readonly workspace: Workspace,
  ) {
    super();
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
  }
}

/** Leaves, view types and layout readiness. Leaves have no geometry here. */
export class Workspace extends Events implements Pick<Obsidian.Workspace, "layoutReady" | "onLayoutReady"> {
  layoutReady = false;
  private readonly leaves: WorkspaceLeaf[] = [];
  private readonly viewCreators = new Map<string, ViewCreator>();
  private readonly layoutReadyCallbacks: (() => unknown)[] = [];
  /** Leaves passed to `revealLeaf`, most recent last (double only). */
  readonly revealedLeaves: WorkspaceLeaf[] = [];

  constructor(private readonly app: App) {
    super();
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
    return this.newLeaf();
  }

  getLeftLeaf(split: boolean): WorkspaceLeaf {
    void split;
    return this.newLeaf();
  }

  getLeaf(newLeaf?: boolean | string): WorkspaceLeaf {
    void newLeaf;
    return this.newLeaf();
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
  }

  private newLeaf(): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, this);
    this.leaves.push(leaf);
    return leaf;
  }
}

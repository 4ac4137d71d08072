import type * as Obsidian from "obsidian";
import type { App } from "./app";
import { Component } from "./events";
import type { WorkspaceLeaf } from "./workspace";

/** The document to build elements in; the parts of the double that draw need a DOM realm. */
export function requireDocument(what: string): Document {
  if (typeof document === "undefined") {
    throw new Error(`The Obsidian double needs a DOM for ${what}: run this test in the "dom" jest project (a .test.tsx file).`);
  }
  return document;
}

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


/**
 * The Obsidian test double: what jest hands code that imports `obsidian` (jest.config.js maps
 * it here), and what the bundle test hands main.js. Only what the code uses, each class checked
 * against obsidian.d.ts (`implements Pick<Obsidian.X, ...>`, `Fits<...>`), in memory, no mocks.
 * Members marked "double only" are for tests to drive or inspect what Obsidian would do.
 *
 * Loaded where a DOM exists (jsdom tests, the bundle test's web realm), it adds Obsidian's
 * element helpers (`createEl`, `createDiv`, `empty`, `setText`, ...) to that DOM.
 */
import { installDomHelpers } from "./domHelpers";

export { App, Platform, Plugin, requestUrl, SecretStorage, type RibbonIcon } from "./app";
export {
  BaseComponent,
  ButtonComponent,
  DropdownComponent,
  SecretComponent,
  setIcon,
  setTooltip,
  TextAreaComponent,
  TextComponent,
  ToggleComponent,
  ValueComponent,
} from "./components";
export { Component, Events, type EventRef } from "./events";
export { Modal, Notice, PluginSettingTab, Setting, SettingTab } from "./setting";
export { InMemoryAdapter } from "./adapter";
export { getLanguage } from "./language";
export { FileManager, MetadataCache } from "./metadataCache";
export { normalizePath, TAbstractFile, TFile, TFolder, Vault, type VaultChange, type VaultMirror, type VaultOptions } from "./vault";
export { Editor } from "./editor";
export { Keymap } from "./keymap";
export { Menu, MenuItem } from "./menu";
export { loadPdfJs } from "./pdfjs";
export { MarkdownRenderChild, MarkdownRenderer, type CodeBlockProcessor } from "./markdownRenderer";
export { editorInfoField, MarkdownView } from "./markdownView";
export { htmlToMarkdown } from "./htmlToMarkdown";
export { ItemView, View, Workspace, WorkspaceLeaf, WorkspaceSidedock, type LeafPlace, type OpenedLink, type ViewCreator } from "./workspace";

if (typeof window !== "undefined" && typeof HTMLElement !== "undefined") {
  installDomHelpers(window as unknown as Parameters<typeof installDomHelpers>[0]);
}

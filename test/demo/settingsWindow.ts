import type { Plugin } from "../obsidian/obsidian";

/**
 * The plugin's settings tab in a window like Obsidian's settings: a dialog over the workspace on
 * a desktop, the whole screen on a phone (`?mobile=1`). The tab is drawn through `display()`, as
 * Obsidian before 1.13 draws it (the double draws no declarative settings). Obsidian's own
 * `app.setting` is left out on purpose: without it the plugin's "Open settings" says where to
 * look, which is what the demo's other tests expect. Returns a function that closes the window.
 */
export function openSettingsWindow(plugin: Plugin): () => void {
  const tab = plugin.registered.settingTabs[0];
  if (!tab) throw new Error("The plugin registered no settings tab");
  const container = document.body.createDiv("modal-container demo-settings");
  container.createDiv("modal-bg");
  const modal = container.createDiv({ cls: "modal mod-settings", attr: { role: "dialog", "aria-label": "Settings" } });
  const close = () => {
    tab.hide();
    container.detach();
  };
  modal.createEl("button", { cls: "modal-close-button", text: "×", attr: { "aria-label": "Close" } }).addEventListener("click", close);
  modal.createDiv({ cls: "modal-title", text: plugin.manifest.name });
  const content = modal.createDiv("modal-content vertical-tab-content-container");
  content.appendChild(tab.containerEl);
  // The declarative settings of Obsidian 1.13 are not drawn by the double; display() draws the same rows.
  (tab as unknown as { display(): void }).display();
  return close;
}

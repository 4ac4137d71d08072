import type { App, Plugin } from "../obsidian/obsidian";

/** The settings window the demo gives `app.setting`, as Obsidian has it (not in obsidian.d.ts). */
export interface DemoSettingsWindow {
  open(): void;
  openTabById(id: string): void;
  close(): void;
}

/**
 * Obsidian's Settings on the demo page: `app.setting.open()` and `openTabById(id)`, which the
 * plugin's "Open settings" buttons call, draw a dialog named "Settings" with the vertical tabs
 * Obsidian has (here one: the plugin's) and the plugin's tab drawn into its content, as Obsidian
 * before 1.13 draws it (`display()`); closing it (the close button, the background, Escape) hides
 * the tab, as Obsidian does. The look is test/demo/obsidianTheme.css's, after Obsidian's.
 */
export function installSettingsWindow(app: App, plugin: Plugin): DemoSettingsWindow {
  let container: HTMLElement | null = null;
  const tab = () => plugin.registered.settingTabs[0];
  const close = () => {
    if (!container) return;
    tab()?.hide();
    container.remove();
    container = null;
  };
  const open = () => {
    if (container) return;
    container = document.body.createDiv({ cls: "modal-container mod-dim mod-settings-container" });
    container.createDiv("modal-bg").addEventListener("click", close);
    const modal = container.createDiv({ cls: "modal mod-settings mod-sidebar-layout", attr: { role: "dialog", "aria-label": "Settings" } });
    modal.createDiv({ cls: "modal-close-button", attr: { role: "button", "aria-label": "Close", tabindex: "0" } }).addEventListener("click", close);
    container.addEventListener("keydown", (event) => {
      if (event.key === "Escape") close();
    });
    const layout = modal.createDiv("modal-content vertical-tabs-container");
    const header = layout.createDiv("vertical-tab-header");
    header.createDiv({ cls: "vertical-tab-header-group-title", text: "Community plugins" });
    const items = header.createDiv({ cls: "vertical-tab-header-group-items", attr: { role: "tablist", "aria-label": "Settings tabs" } });
    const item = items.createDiv({ cls: "vertical-tab-nav-item is-active", text: plugin.manifest.name, attr: { role: "tab", "aria-selected": "true" } });
    const content = layout.createDiv("vertical-tab-content-container");
    const current = tab();
    if (!current) {
      content.createDiv({ cls: "vertical-tab-content", text: "This plugin has no settings." });
      return;
    }
    content.appendChild(current.containerEl);
    item.addEventListener("click", () => current.display());
    current.display();
  };
  const window: DemoSettingsWindow = { open, openTabById: () => open(), close };
  Object.assign(app, { setting: window });
  return window;
}

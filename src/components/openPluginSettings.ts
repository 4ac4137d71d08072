import { Notice, type App } from "obsidian";
import { PLUGIN_ID } from "../constants";
import { t } from "../i18n/t";

/**
 * Opens Settings at the plugin's tab. Obsidian's settings window is not part of its public API
 * (obsidian.d.ts), though it has been `app.setting` for years: it is used when there, and the user
 * is told where to look when not.
 */
export function openPluginSettings(app: App): void {
  const setting = (app as unknown as { setting?: { open?: () => void; openTabById?: (id: string) => unknown } }).setting;
  if (typeof setting?.open === "function" && typeof setting.openTabById === "function") {
    setting.open();
    setting.openTabById(PLUGIN_ID);
    return;
  }
  new Notice(t("notice.openSettings"));
}

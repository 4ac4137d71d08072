import type * as Obsidian from "obsidian";
import type { Fits } from "./events";

/**
 * `getLanguage()` as Obsidian has it: the language chosen in Settings → General, which Obsidian
 * keeps in the window's localStorage under "language" (absent: English, "en"). The demo sets it
 * from `?lang=xx` before the plugin loads; a test sets it with `localStorage.setItem("language", …)`.
 */
export function getLanguage(): string {
  const storage = typeof window === "undefined" ? undefined : window.localStorage;
  return storage?.getItem("language") || "en";
}

export type GetLanguageFits = Fits<typeof Obsidian.getLanguage, typeof getLanguage>;

import { getLanguage } from "obsidian";
import { languageFor, type Language } from "./languages";
import type { MessageKey, MessageValues } from "./messages";
import { translate } from "./translate";

/**
 * The interface's language: Obsidian's own (`getLanguage()`, fixed until Obsidian restarts),
 * English where we ship no table for it. Read at each call, so nothing is kept at load time.
 */
export function currentLanguage(): Language {
  return languageFor(getLanguage());
}

/** The locale for dates and numbers the interface shows (Intl), in the interface's language. */
export function uiLocale(): string {
  return currentLanguage().locale;
}

/** The message `key` in the interface's language, with its `{name}` placeholders filled. */
export function t(key: MessageKey, values?: MessageValues): string {
  return translate(currentLanguage(), key, values);
}

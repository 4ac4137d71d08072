import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { ja } from "./ja";
import { ko } from "./ko";
import type { Translation } from "./messages";
import { ptBR } from "./pt-BR";
import { ru } from "./ru";
import { zh } from "./zh";
import { zhTW } from "./zh-TW";

/** A language the plugin ships: its table, and the locale dates, numbers and plurals follow. */
export interface Language {
  /** Obsidian's code for it (`getLanguage()`). */
  code: string;
  /** A BCP 47 tag for Intl. */
  locale: string;
  /** The language's name in itself, as Obsidian's language menu shows it. */
  name: string;
  table: Translation;
}

export const ENGLISH: Language = { code: "en", locale: "en-US", name: "English", table: en };

/** The shipped languages, English first. */
export const LANGUAGES: readonly Language[] = [
  ENGLISH,
  { code: "zh", locale: "zh-CN", name: "简体中文", table: zh },
  { code: "zh-TW", locale: "zh-TW", name: "繁體中文", table: zhTW },
  { code: "ja", locale: "ja-JP", name: "日本語", table: ja },
  { code: "ko", locale: "ko-KR", name: "한국어", table: ko },
  { code: "es", locale: "es-ES", name: "Español", table: es },
  { code: "de", locale: "de-DE", name: "Deutsch", table: de },
  { code: "fr", locale: "fr-FR", name: "Français", table: fr },
  { code: "ru", locale: "ru-RU", name: "Русский", table: ru },
  { code: "pt-BR", locale: "pt-BR", name: "Português do Brasil", table: ptBR },
];

const BY_CODE: ReadonlyMap<string, Language> = new Map(LANGUAGES.map((language) => [language.code.toLowerCase(), language]));

/**
 * The shipped language for one of Obsidian's language codes ("zh", "zh-TW", "ja", "pt-BR", …),
 * English for any other. A code for a region of a language we ship without that region (Obsidian
 * has "pt" beside "pt-BR") takes the language itself ("pt" reads pt-BR, "zh-HK" reads zh-TW:
 * both write traditional characters).
 */
export function languageFor(code: string | null | undefined): Language {
  const wanted = (code ?? "").trim().replace(/_/g, "-").toLowerCase();
  if (wanted === "") return ENGLISH;
  const exact = BY_CODE.get(wanted);
  if (exact) return exact;
  if (wanted === "zh-hk" || wanted === "zh-mo" || wanted === "zh-hant") return BY_CODE.get("zh-tw")!;
  const base = wanted.split("-")[0]!;
  if (base === "pt") return BY_CODE.get("pt-br")!;
  return BY_CODE.get(base) ?? ENGLISH;
}

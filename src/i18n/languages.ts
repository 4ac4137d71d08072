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
  /** The locale's number format and plural rules, made once: a streaming answer's counts are written at every frame. */
  numbers: Intl.NumberFormat;
  plurals: Intl.PluralRules;
}

/** A shipped language, with its Intl objects. */
export function language(code: string, locale: string, name: string, table: Translation): Language {
  return { code, locale, name, table, numbers: new Intl.NumberFormat(locale), plurals: new Intl.PluralRules(locale) };
}

export const ENGLISH: Language = language("en", "en-US", "English", en);

/** The shipped languages, English first. */
export const LANGUAGES: readonly Language[] = [
  ENGLISH,
  language("zh", "zh-CN", "简体中文", zh),
  language("zh-TW", "zh-TW", "繁體中文", zhTW),
  language("ja", "ja-JP", "日本語", ja),
  language("ko", "ko-KR", "한국어", ko),
  language("es", "es-ES", "Español", es),
  language("de", "de-DE", "Deutsch", de),
  language("fr", "fr-FR", "Français", fr),
  language("ru", "ru-RU", "Русский", ru),
  language("pt-BR", "pt-BR", "Português do Brasil", ptBR),
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

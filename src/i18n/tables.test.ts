/**
 * The shipped tables against English, the source of truth: every key English has is in every
 * table, with the same placeholders, the plural forms its language's rules need (Intl.PluralRules)
 * and no empty text. A table may not leave a key to the English fallback: a person reading
 * Japanese should never meet an English sentence the plugin wrote.
 */
import { en } from "./en";
import { LANGUAGES } from "./languages";
import type { Message, MessageKey } from "./messages";

const KEYS = Object.keys(en) as MessageKey[];

function placeholders(message: Message): string[] {
  const texts = typeof message === "string" ? [message] : Object.values(message);
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!)))].sort();
}

function texts(message: Message): string[] {
  return typeof message === "string" ? [message] : Object.values(message);
}

describe.each(LANGUAGES.filter((language) => language.code !== "en").map((language) => [language.code, language] as const))("the %s table", (_code, language) => {
  const table = language.table as Partial<Record<MessageKey, Message>>;

  it("has every key English has", () => {
    expect(KEYS.filter((key) => table[key] === undefined)).toEqual([]);
  });

  it("has no key English lacks", () => {
    expect(Object.keys(table).filter((key) => !Object.hasOwn(en, key))).toEqual([]);
  });

  it("keeps each message's placeholders, no more and no fewer", () => {
    const differing = KEYS.filter((key) => table[key] !== undefined && placeholders(table[key]).join() !== placeholders(en[key]).join());
    expect(differing.map((key) => `${key}: ${placeholders(en[key]).join()} → ${placeholders(table[key]!).join()}`)).toEqual([]);
  });

  it("has every plural form its language needs where English counts, and text where English has text", () => {
    const categories = new Intl.PluralRules(language.locale).resolvedOptions().pluralCategories;
    const problems = KEYS.flatMap((key) => {
      const message = table[key];
      if (message === undefined) return [];
      if (typeof en[key] === "string") return typeof message === "string" ? [] : [`${key}: forms where English has a sentence`];
      if (typeof message === "string") return [`${key}: a sentence where English counts`];
      return categories.filter((category) => message[category] === undefined).map((category) => `${key}: no "${category}" form`);
    });
    expect(problems).toEqual([]);
  });

  it("has no empty text", () => {
    expect(KEYS.filter((key) => table[key] !== undefined && texts(table[key]).some((text) => text.trim() === ""))).toEqual([]);
  });
});

describe("the English table", () => {
  it("counts with the forms English needs, and has no empty text", () => {
    const categories = new Intl.PluralRules("en-US").resolvedOptions().pluralCategories;
    const problems = KEYS.flatMap((key) => {
      const message: Message = en[key];
      if (texts(message).some((text) => text.trim() === "")) return [`${key}: empty`];
      return typeof message === "string" ? [] : categories.filter((category) => (message as Record<string, string>)[category] === undefined).map((category) => `${key}: no ${category}`);
    });
    expect(problems).toEqual([]);
  });
});

import type { en } from "./en";

/**
 * A message in the plugin's interface: a sentence with `{name}` placeholders, or, where it
 * counts something, one sentence per plural category of the language (Intl.PluralRules);
 * `other` is the one every language has.
 */
export type Message = string | PluralMessage;

export type PluralMessage = Readonly<Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;

/** Every message the interface shows, by key: English is the source of truth. */
export type MessageKey = keyof typeof en;

/**
 * A language's table: any of English's keys (a key English lacks does not compile), a sentence
 * where English has one and plural forms where English counts. A key left out reads in English.
 */
export type Translation = {
  readonly [K in MessageKey]?: (typeof en)[K] extends string ? string : PluralMessage;
};

/** The values a message's placeholders take: text as it is, numbers in the language's own digits and separators. */
export type MessageValues = Readonly<Record<string, string | number>>;

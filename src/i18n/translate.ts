import { en } from "./en";
import type { Language } from "./languages";
import type { Message, MessageKey, MessageValues, PluralMessage } from "./messages";

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The message `key` in `language`, its `{name}` placeholders filled from `values` (numbers
 * written the language's way). A message that counts picks its form by `values.count` through
 * the language's plural rules. A key the language lacks reads in English; a placeholder without
 * a value stays as written, so a missing value shows rather than vanishes.
 */
export function translate(language: Language, key: MessageKey, values: MessageValues = {}): string {
  const message: Message = language.table[key] ?? en[key];
  const text = typeof message === "string" ? message : pluralForm(message, language.plurals, values.count);
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? language.numbers.format(value) : value;
  });
}

function pluralForm(message: PluralMessage, plurals: Intl.PluralRules, count: string | number | undefined): string {
  const amount = typeof count === "number" ? count : Number(count);
  if (!Number.isFinite(amount)) return message.other;
  return message[plurals.select(amount)] ?? message.other;
}

/**
 * True when `key` is a message and `values` names each of its placeholders (each table has English's). A case
 * read from a file a person or a later version wrote may lack one: its view says the sentence it
 * has instead of showing "{name}".
 */
export function fillsEveryPlaceholder(key: MessageKey, values: MessageValues): boolean {
  // A key English lacks (a kind named by something other than our tools) has no sentence to fill.
  const message: Message | undefined = (en as Readonly<Record<string, Message | undefined>>)[key];
  if (message === undefined) return false;
  const forms = typeof message === "string" ? [message] : Object.values(message);
  return forms.every((form) => [...form.matchAll(PLACEHOLDER)].every(([, name = ""]) => values[name] !== undefined));
}

import type { Message, Translation } from "./messages";

/**
 * A language's table as main.js carries it: its messages in the order of English's keys, with no
 * key written. English's table is the one list of key names; written out in every table they took
 * about 17 KB a table. The sources keep their keys (`src/i18n/<code>.ts` is what people edit); only
 * the build packs them (scripts/bundle/packTranslations.js), and `unpackTranslation` makes the table
 * again when main.js loads.
 */
export type PackedTranslation = readonly (Message | typeof MISSING)[];

/** Where a table lacks one of English's keys (it reads in English). Messages are never numbers. */
export const MISSING = 0;

/**
 * `table`'s messages in the order of `english`'s keys, `MISSING` where it has none; the run of
 * missing keys at the end is left out. Throws on a key English lacks, which could not be unpacked.
 */
export function packTranslation(english: Readonly<Record<string, Message>>, table: Translation): PackedTranslation {
  const messages = table as Readonly<Record<string, Message | undefined>>;
  const unknown = Object.keys(messages).filter((key) => !Object.hasOwn(english, key));
  if (unknown.length > 0) throw new Error(`The table has keys English lacks, which main.js could not carry: ${unknown.join(", ")}`);
  const packed = Object.keys(english).map((key) => (Object.hasOwn(messages, key) && messages[key] !== undefined ? messages[key] : MISSING));
  while (packed.length > 0 && packed[packed.length - 1] === MISSING) packed.pop();
  return packed;
}

/** The table `packTranslation` packed, against the same English table: each message under its key, none for a missing one. */
export function unpackTranslation(english: Readonly<Record<string, Message>>, packed: PackedTranslation): Translation {
  const keys = Object.keys(english);
  if (packed.length > keys.length) throw new Error(`A packed table holds ${packed.length} messages, but English has only ${keys.length} keys: it was packed against another English table`);
  const table: Record<string, Message> = {};
  packed.forEach((message, index) => {
    if (message !== MISSING) table[keys[index]!] = message;
  });
  return table;
}

import type { z } from "zod";

// With the "u" flag a surrogate pair is one code point, so only a lone half can match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** True when `text` holds half of a UTF-16 surrogate pair without the other half. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * `schema` refusing text with a lone surrogate. No note can store one (UTF-8 has no form for it:
 * it is written as U+FFFD), so an edit carrying one would write other text than the diff showed
 * and could never be undone.
 */
export function refuseLoneSurrogates<Schema extends z.ZodString>(schema: Schema): Schema {
  return schema.refine((text) => !hasLoneSurrogate(text), {
    error:
      "contains a lone surrogate (half of a UTF-16 character pair, such as \\uD800), which no note can store. " +
      "Send the whole character, or leave it out",
  });
}

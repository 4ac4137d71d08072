import type { ChainErrorKind } from "../../LLMProviders/chainRunner/ChainEvents";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";

/**
 * An error as the chat shows it: our sentence first, starting with a capital, and the provider's
 * own words (what its server said, which may be long, technical or in another language) kept
 * apart, for a "Details" fold. The model errors' sentences (net/modelErrors.ts) carry the
 * server's words in one of two places: "(HTTP 401: …)" or after "failed: ".
 */
export interface ShownError {
  /** What happened and what to do, in our words. */
  text: string;
  /** The provider's own words, when there are any. */
  raw?: string;
}

/** "… refused the API key (HTTP 401: Incorrect API key provided). Check …" */
const HTTP_PART = / \((HTTP \d{3}(?::[\s\S]*?)?)\)(?=\.(?:\s|$))/;
/** "The request to OpenAI (…) failed: socket hang up" */
const FAILED_PART = /^(The request to [\s\S]*? failed): ([\s\S]+)$/;

export function shownError(message: string): ShownError {
  const trimmed = message.trim();
  const http = HTTP_PART.exec(trimmed);
  if (http && http[1]?.includes(":")) return { text: capitalized(trimmed.replace(HTTP_PART, "")), raw: http[1] };
  const failed = FAILED_PART.exec(trimmed);
  if (failed) return { text: capitalized(`${failed[1]}.`), raw: failed[2] };
  return { text: capitalized(trimmed) };
}

/** The first letter as a capital (a message from a library may start in lower case). */
export function capitalized(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const letter = String.fromCodePoint(first);
  return letter.toLocaleUpperCase("en-US") + text.slice(letter.length);
}

/**
 * A failed answer's error as the chat shows it, in the interface's language: in English the
 * sentence the code wrote (its provider part under Details); in another language the sentence for
 * its kind, and the English sentence with the provider's own words under Details, as they are.
 */
export function shownChatError(error: { kind: ChainErrorKind; message: string }): ShownError {
  if (currentLanguage() === ENGLISH) return shownError(error.message);
  return { text: t(`error.${error.kind}`), raw: error.message.trim() };
}

/** The reason a failed answer gives, for a screen reader's announcement. */
export function errorReason(error: { kind: ChainErrorKind; message: string }): string {
  return currentLanguage() === ENGLISH ? error.message : t(`error.${error.kind}`);
}

import { noteName } from "../vault/vaultPath";
import type { RelatedPassage } from "./relatedPassages";

/** How much of the note goes with a completion request, in characters. */
export interface ContextLimits {
  /** Text before the cursor (cut at a paragraph start when longer). */
  before: number;
  /** Text after the cursor (cut at a paragraph end when longer). */
  after: number;
}

/** About 500 tokens before and 125 after: enough to continue a thought, small enough to answer fast. */
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = { before: 2000, after: 500 };

/** The part of the note a completion request carries. */
export interface CompletionContext {
  /** The note's vault path ("" when the editor shows no file). */
  path: string;
  /** The note's name, without folder or extension. */
  title: string;
  before: string;
  after: string;
  /** A plain hint of the script the text is written in ("Cyrillic"), or null for Latin text or too little text. */
  script: string | null;
  /** Passages of the user's other notes on what is being written, when the settings send them (relatedPassages.ts). */
  related?: readonly RelatedPassage[];
}

/**
 * The note around the cursor, capped: at most `limits.before` characters before it, starting at a
 * paragraph (or, with no paragraph break in reach, a line) so the model never sees half a
 * sentence at the top; at most `limits.after` after it, ending at a paragraph's end where one is
 * in reach. Cuts never split a surrogate pair.
 */
export function completionContext(path: string, text: string, cursor: number, limits: ContextLimits = DEFAULT_CONTEXT_LIMITS): CompletionContext {
  let before = text.slice(0, cursor);
  if (before.length > limits.before) {
    const window = before.slice(safeStart(before, before.length - limits.before));
    const paragraph = window.indexOf("\n\n");
    const line = window.indexOf("\n");
    const cut = paragraph !== -1 && paragraph < window.length - 1 ? paragraph + 2 : line !== -1 && line < window.length - 1 ? line + 1 : 0;
    before = window.slice(cut);
  }
  let after = text.slice(cursor);
  if (after.length > limits.after) {
    const window = after.slice(0, safeEnd(after, limits.after));
    const paragraph = window.lastIndexOf("\n\n");
    after = paragraph > 0 ? window.slice(0, paragraph) : window;
  }
  return { path, title: noteName(path), before, after, script: dominantScript(before) };
}

/** `at`, moved forward past a low surrogate so the slice does not start inside a pair. */
function safeStart(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

/** `at`, moved back before a high surrogate so the slice does not end inside a pair. */
function safeEnd(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

const SCRIPTS: Array<[name: string, pattern: RegExp]> = [
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Hangul (Korean)", /\p{Script=Hangul}/u],
  ["Japanese kana", /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ["Han (Chinese characters)", /\p{Script=Han}/u],
];

/**
 * The script most letters of the text's last 400 characters are written in, when it is not
 * Latin: models asked to continue a short Russian or Chinese passage drift into English often
 * enough that the request names the script outright. Japanese (kana with kanji) is named as
 * Japanese, not Han.
 */
export function dominantScript(text: string): string | null {
  const sample = [...text.slice(-400)];
  const counts = new Map<string, number>();
  let latin = 0;
  for (const character of sample) {
    if (/\p{Script=Latin}/u.test(character)) {
      latin++;
      continue;
    }
    const found = SCRIPTS.find(([, pattern]) => pattern.test(character));
    if (found) counts.set(found[0], (counts.get(found[0]) ?? 0) + 1);
  }
  const kana = counts.get("Japanese kana") ?? 0;
  if (kana > 0) counts.set("Japanese kana", kana + (counts.get("Han (Chinese characters)") ?? 0));
  let best: [string, number] | null = null;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  if (!best || best[1] < 3 || best[1] <= latin) return null;
  return best[0] === "Japanese kana" ? "Japanese (kana and kanji)" : best[0];
}

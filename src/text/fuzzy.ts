/**
 * Matching what a person types against names (notes, folders, tags, prompts), for every list that
 * narrows as they type: the "@" suggestions, the "/" prompts, and the notes with like names a
 * "no note matches" message offers. Text is compared folded (`foldForMatching`): one Unicode form,
 * one letter case, so a name typed composed finds a note stored decomposed (as macOS writes names).
 */

/** Characters after which a match starts a word: a space, a folder's "/", "_", "-", "." or a tag's "#". */
const WORD_SEPARATOR = /[\s/_\-.#]/;
/** Where a query is cut into words for `wordMatcher`. */
const QUERY_WORD_BREAK = /[\s/_-]+/;

/** Text as the matchers compare it: NFC, no-break spaces as spaces, lower case. */
export function foldForMatching(text: string): string {
  return text.normalize("NFC").replace(/\u00a0|\u202f/g, " ").toLowerCase();
}

/**
 * How well `query` matches `text` (higher is better), or null when its characters do not all
 * appear in `text` in order. A space typed stands for any separator ("kitchen sal" finds
 * "Kitchen/Salad"). Matches at word starts and runs of consecutive characters score more; a match
 * in the last path segment (the name) more than in the folders, and a name that starts with the
 * query most.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const needle = foldForMatching(query);
  const haystack = foldForMatching(text);
  const nameStart = haystack.lastIndexOf("/") + 1;
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const character of needle) {
    if (/\s/.test(character)) continue;
    const found = haystack.indexOf(character, from);
    if (found === -1) return null;
    const atWordStart = found === 0 || WORD_SEPARATOR.test(haystack[found - 1]!);
    score += 1 + (found === previous + 1 ? 3 : 0) + (atWordStart ? 2 : 0) + (found >= nameStart ? 1 : 0);
    previous = found;
    from = found + character.length;
  }
  if (haystack.slice(nameStart).startsWith(needle)) score += 10;
  return score;
}

/**
 * How `name` matches `query`, lower is better: 0 it starts with it, 1 it contains it, 2 it has its
 * characters in order (as `fuzzyScore` finds them); null when it does not match.
 */
export function nameMatchRank(query: string, name: string): 0 | 1 | 2 | null {
  const wanted = foldForMatching(query);
  const folded = foldForMatching(name);
  if (folded.startsWith(wanted)) return 0;
  if (folded.includes(wanted)) return 1;
  return fuzzyScore(wanted, folded) === null ? null : 2;
}

/**
 * Counts how many words of `query` a text holds: for names that share words with what was typed
 * but not its characters in order ("Поиск заметок" for the note "Поиск"). Words are cut at spaces,
 * "/", "_" and "-"; words of one character are too common to count.
 */
export function wordMatcher(query: string): (text: string) => number {
  const words = foldForMatching(query)
    .split(QUERY_WORD_BREAK)
    .filter((word) => word.length >= 2);
  return (text) => {
    const folded = foldForMatching(text);
    return words.filter((word) => folded.includes(word)).length;
  };
}

/**
 * An English stemmer following the Porter2 ("Snowball English") algorithm by Martin Porter:
 * "consisted", "consistency" and "consistently" all become "consist", so a search for one finds
 * the others. Written from the algorithm's published description. Only plain a-z words are
 * stemmed; anything else (numbers, other scripts) is returned as it came.
 */
export function stemEnglish(word: string): string {
  if (word.length <= 2 || !/^[a-z']+$/.test(word)) return word;
  const exception = EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;

  let w = word.startsWith("'") ? word.slice(1) : word;
  w = markConsonantY(w);
  const r1 = regionOne(w);
  const r2 = regionAfter(w, r1);

  w = step0(w);
  w = step1a(w);
  if (AFTER_STEP_1A.has(w)) return w;
  w = step1b(w, r1);
  w = step1c(w);
  w = step2(w, r1);
  w = step3(w, r1, r2);
  w = step4(w, r2);
  w = step5(w, r1, r2);
  return w.includes("Y") ? w.replace(/Y/g, "y") : w;
}

/** Words the algorithm would get wrong, with their stems (the algorithm's own exception list). */
const EXCEPTIONS = new Map<string, string>([
  ["skis", "ski"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["idly", "idl"],
  ["gently", "gentl"],
  ["ugly", "ugli"],
  ["early", "earli"],
  ["only", "onli"],
  ["singly", "singl"],
  ["sky", "sky"],
  ["news", "news"],
  ["howe", "howe"],
  ["atlas", "atlas"],
  ["cosmos", "cosmos"],
  ["bias", "bias"],
  ["andes", "andes"],
]);

/** Left alone once step 1a has run ("inning" is not "inn" + "ing"). */
const AFTER_STEP_1A = new Set(["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"]);

function hasVowel(word: string): boolean {
  for (let index = 0; index < word.length; index++) if (isVowel(word[index])) return true;
  return false;
}

function isVowel(character: string | undefined): boolean {
  return character === "a" || character === "e" || character === "i" || character === "o" || character === "u" || character === "y";
}

/** A "y" that acts as a consonant (at the start, or after a vowel) is written "Y" while stemming. */
function markConsonantY(word: string): string {
  // Most words have no "y": returned as they are, without building a copy letter by letter.
  if (!word.includes("y")) return word;
  let out = "";
  for (let index = 0; index < word.length; index++) {
    const character = word[index] ?? "";
    out += character === "y" && (index === 0 || isVowel(word[index - 1])) ? "Y" : character;
  }
  return out;
}

/** R1: after the first non-vowel that follows a vowel; fixed for a few prefixes. */
const REGION_ONE_PREFIXES = ["gener", "commun", "arsen"] as const;

function regionOne(word: string): number {
  for (const prefix of REGION_ONE_PREFIXES) if (word.startsWith(prefix)) return prefix.length;
  return regionAfter(word, 0);
}

function regionAfter(word: string, start: number): number {
  for (let index = start + 1; index < word.length; index++) {
    if (!isVowel(word[index]) && isVowel(word[index - 1])) return index + 1;
  }
  return word.length;
}

/** Ends in a short syllable: non-vowel, vowel, non-vowel (not w, x or Y); or vowel + non-vowel as a whole word. */
function endsInShortSyllable(word: string): boolean {
  const n = word.length;
  if (n === 2) return isVowel(word[0]) && !isVowel(word[1]);
  if (n < 3) return false;
  const last = word[n - 1] ?? "";
  return !isVowel(word[n - 3]) && isVowel(word[n - 2]) && !isVowel(last) && last !== "w" && last !== "x" && last !== "Y";
}

function isShort(word: string, r1: number): boolean {
  return r1 >= word.length && endsInShortSyllable(word);
}

/** Suffixes grouped by their last letter, each group longest first: a word is compared only with those it could end with. */
type SuffixTable = ReadonlyMap<string, readonly string[]>;

function suffixTable(suffixes: readonly string[]): SuffixTable {
  const table = new Map<string, string[]>();
  for (const suffix of suffixes) {
    const last = suffix.slice(-1);
    table.set(last, [...(table.get(last) ?? []), suffix]);
  }
  for (const group of table.values()) group.sort((a, b) => b.length - a.length);
  return table;
}

/** The longest suffix in `table` that `word` ends with, or undefined. */
function longestSuffix(word: string, table: SuffixTable): string | undefined {
  const group = table.get(word.slice(-1));
  if (group) for (const suffix of group) if (word.endsWith(suffix)) return suffix;
  return undefined;
}

const STEP_0 = suffixTable(["'s'", "'s", "'"]);

function step0(word: string): string {
  if (!word.includes("'")) return word;
  const suffix = longestSuffix(word, STEP_0);
  return suffix ? word.slice(0, -suffix.length) : word;
}

function step1a(word: string): string {
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ied") || word.endsWith("ies")) return word.length > 4 ? word.slice(0, -2) : word.slice(0, -1);
  if (word.endsWith("us") || word.endsWith("ss")) return word;
  if (word.endsWith("s")) {
    // Delete the "s" if a vowel comes earlier than the letter just before it ("gaps", not "gas").
    for (let index = 0; index < word.length - 2; index++) if (isVowel(word[index])) return word.slice(0, -1);
  }
  return word;
}

const STEP_1B = suffixTable(["eedly", "ingly", "edly", "eed", "ing", "ed"]);
const DOUBLES = new Set(["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"]);

function step1b(word: string, r1: number): string {
  const suffix = longestSuffix(word, STEP_1B);
  if (!suffix) return word;
  const stem = word.slice(0, -suffix.length);
  if (suffix === "eed" || suffix === "eedly") return stem.length >= r1 ? `${stem}ee` : word;
  if (!hasVowel(stem)) return word;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
  if (DOUBLES.has(stem.slice(-2))) return stem.slice(0, -1);
  if (isShort(stem, r1)) return `${stem}e`;
  return stem;
}

function step1c(word: string): string {
  const n = word.length;
  const last = word[n - 1];
  if ((last === "y" || last === "Y") && n > 2 && !isVowel(word[n - 2])) return `${word.slice(0, -1)}i`;
  return word;
}

const STEP_2_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["fulness", "ful"],
  ["iveness", "ive"],
  ["ization", "ize"],
  ["ousness", "ous"],
  ["biliti", "ble"],
  ["lessli", "less"],
  ["tional", "tion"],
  ["alism", "al"],
  ["aliti", "al"],
  ["ation", "ate"],
  ["entli", "ent"],
  ["fulli", "ful"],
  ["iviti", "ive"],
  ["ousli", "ous"],
  ["abli", "able"],
  ["alli", "al"],
  ["anci", "ance"],
  ["ator", "ate"],
  ["enci", "ence"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["ogi", "og"],
  ["li", ""],
];
const STEP_2 = suffixTable(STEP_2_REPLACEMENTS.map(([suffix]) => suffix));
const STEP_2_REPLACEMENT = new Map(STEP_2_REPLACEMENTS);
const LI_ENDINGS = new Set(["c", "d", "e", "g", "h", "k", "m", "n", "r", "t"]);

function step2(word: string, r1: number): string {
  const suffix = longestSuffix(word, STEP_2);
  if (suffix === undefined) return word;
  const replacement = STEP_2_REPLACEMENT.get(suffix) ?? "";
  const stem = word.slice(0, -suffix.length);
  if (stem.length < r1) return word;
  if (suffix === "ogi" && !stem.endsWith("l")) return word;
  if (suffix === "li" && !LI_ENDINGS.has(stem.slice(-1))) return word;
  return stem + replacement;
}

const STEP_3_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ative", ""],
  ["ical", "ic"],
  ["ness", ""],
  ["ful", ""],
];

const STEP_3 = suffixTable(STEP_3_REPLACEMENTS.map(([suffix]) => suffix));
const STEP_3_REPLACEMENT = new Map(STEP_3_REPLACEMENTS);

function step3(word: string, r1: number, r2: number): string {
  const suffix = longestSuffix(word, STEP_3);
  if (suffix === undefined) return word;
  const replacement = STEP_3_REPLACEMENT.get(suffix) ?? "";
  const stem = word.slice(0, -suffix.length);
  if (stem.length < r1) return word;
  if (suffix === "ative" && stem.length < r2) return word;
  return stem + replacement;
}

const STEP_4 = suffixTable([
  "ement",
  "ance",
  "ence",
  "able",
  "ible",
  "ment",
  "ant",
  "ent",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "ion",
  "al",
  "er",
  "ic",
]);

function step4(word: string, r2: number): string {
  const suffix = longestSuffix(word, STEP_4);
  if (!suffix) return word;
  const stem = word.slice(0, -suffix.length);
  if (stem.length < r2) return word;
  if (suffix === "ion" && !(stem.endsWith("s") || stem.endsWith("t"))) return word;
  return stem;
}

function step5(word: string, r1: number, r2: number): string {
  const stem = word.slice(0, -1);
  if (word.endsWith("e")) {
    if (stem.length >= r2 || (stem.length >= r1 && !endsInShortSyllable(stem))) return stem;
  } else if (word.endsWith("l") && stem.length >= r2 && stem.endsWith("l")) {
    return stem;
  }
  return word;
}

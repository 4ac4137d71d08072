import { stemEnglish } from "./englishStemmer";

/**
 * Bumped whenever tokens would come out differently for the same text, or land in other fields (a
 * note's headings and tags, read by noteOutline): a persisted index made by another version no
 * longer matches what queries produce, so it is rebuilt. 4: fences read as CommonMark reads them
 * (markdown/fences.ts), so headings and tags inside a four-backtick block are no longer indexed.
 * 5: emoji are terms of their own ("📚 Books" is "📚" and "book"), their presentation and skin-tone
 * modifiers dropped.
 */
export const TOKENIZER_VERSION = 5;

/**
 * English function words left out of the index, as in Lucene's English analyzer (the baseline the
 * search is measured against). Kept short on purpose: BM25's idf already makes common words cheap,
 * and words like "after" or "between" carry meaning in a claim.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no",
  "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this",
  "to", "was", "will", "with",
]);

/** Longer runs are hashes, keys or base64 blobs: noise in the vocabulary, never searched for. */
const MAX_TOKEN_LENGTH = 64;

// Applied to one token at a time: a number with decimal or thousands separators ("3.5", "1,000"),
// or a run of letters, digits and marks. Used again on a token that folding changed ("½" is "1⁄2").
const TOKEN = /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{N}\p{M}]+/gu;
const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}]$/u;
// An emoji's base (📚, ✅, 🎉); its presentation selectors, skin tones and joiners are not searched.
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const EMOJI_MODIFIER = /^(?:\ufe0e|\ufe0f|\u200d|\p{Emoji_Modifier})$/u;
// Scripts written without spaces between words: such runs go through Intl.Segmenter.
const UNSPACED_SCRIPT = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
// Chinese characters and Japanese kana (with the long-vowel mark "ー", which Unicode files as common
// to both kana): the letters that pair up (see segmentCjk).
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]/u;
const CJK_ONLY = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+$/u;
// Accents and other combining marks of the Latin, Greek and Cyrillic scripts (after NFKD). Marks of
// other scripts (Devanagari vowel signs, Japanese voicing marks) are part of their letters: kept.
const FOLDED_MARKS = /[\u0300-\u036f]|[\u1ab0-\u1aff]|[\u1dc0-\u1dff]|[\u20d0-\u20ff]|[\ufe20-\ufe2f]/g;
// Letters that carry no combining mark to drop but are written as plain letters in ASCII.
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i", ŋ: "n", ſ: "s",
};
const FOLDABLE_LETTER = /[ßæœøłđðþıŋſ]/g;
const NON_ASCII = /\P{ASCII}/u;
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;

/**
 * One search term, as the tokenizer hands it out: one object per distinct token (while it is
 * cached; "notes" and "note" have one each, of the same text), so an index can keep its own id for
 * the term on the object instead of looking the text up again for every occurrence (ten times
 * faster when a vault is indexed). `indexedBy` says whose
 * id `indexId` is; anyone else looks the text up.
 */
export class Term {
  indexedBy: object | undefined;
  indexId = -1;

  constructor(readonly text: string) {}
}

/**
 * Text to search terms, the same way for notes and for queries: Unicode letters and numbers,
 * lower-cased, diacritics folded ("Café" and "cafe" meet), English words stemmed and English
 * function words dropped, and Chinese, Japanese, Thai and similar text cut into words by
 * `Intl.Segmenter` (or into character pairs where the runtime has none).
 *
 * One instance keeps a cache of each token's term, which makes indexing a large vault several times faster;
 * the cache is bounded, so an instance can live as long as the index.
 */
export class Tokenizer {
  /** Token -> its term, or null for a token left out (a stop word, a run too long). */
  private readonly termOfToken = new Map<string, Term | null>();
  private readonly characterKinds = new Map<string, CharacterKind>();
  private segmenter: Intl.Segmenter | null | undefined;

  constructor(private readonly maxCachedTerms = 200_000) {}

  /** The terms of `text`, in order, repeats kept (their counts are term frequencies). */
  tokenize(text: string): string[] {
    const terms: string[] = [];
    this.forEachTerm(text, (term) => terms.push(term.text));
    return terms;
  }

  /** As `tokenize`, as term objects (for indexing). */
  terms(text: string): Term[] {
    const terms: Term[] = [];
    this.forEachTerm(text, (term) => terms.push(term));
    return terms;
  }

  /**
   * Calls `visit` with each term of `text`, in order, without building an array. A hand-written
   * scan: plain ASCII text, most of any vault, never meets a Unicode regular expression.
   */
  forEachTerm(text: string, visit: (term: Term) => void): void {
    const lower = text.toLowerCase();
    const length = lower.length;
    let start = -1;
    let unusual = false;
    let digitsOnly = true;
    const flush = (end: number) => {
      const token = lower.slice(start, end);
      if (unusual) this.emitUnusual(token, visit);
      else this.emit(token, visit);
      start = -1;
      unusual = false;
      digitsOnly = true;
    };
    for (let index = 0; index <= length; index++) {
      const code = index < length ? lower.charCodeAt(index) : 32;
      let inWord: boolean;
      if (code < 128) {
        const isDigit = code >= 48 && code <= 57;
        inWord = isDigit || (code >= 97 && code <= 122);
        if (inWord) {
          if (!isDigit) digitsOnly = false;
        } else if (start >= 0 && index + 1 < length) {
          // "don't", "note's": an apostrophe between letters stays in the word; "3.5": so do a
          // point or comma between digits of a number.
          const next = lower.charCodeAt(index + 1);
          if (code === APOSTROPHE) inWord = this.isWordCode(next, lower, index + 1);
          else if ((code === 46 || code === 44) && digitsOnly) inWord = next >= 48 && next <= 57 && isAsciiDigit(lower.charCodeAt(index - 1));
          if (inWord && code === APOSTROPHE) unusual = true;
        }
      } else if (code === RIGHT_QUOTE) {
        inWord = start >= 0 && index + 1 < length && this.isWordCode(lower.charCodeAt(index + 1), lower, index + 1);
        if (inWord) unusual = true;
      } else {
        const kind = this.kindOf(code, lower, index);
        if (kind === "pictograph" || kind === "modifier") {
          // An emoji is a term of its own, between words or inside one ("done✅"); what modifies it is skipped.
          if (start >= 0) flush(index);
          const character = String.fromCodePoint(lower.codePointAt(index) ?? code);
          if (kind === "pictograph") this.emit(character, visit);
          index += character.length - 1;
          continue;
        }
        inWord = kind === "word";
        if (inWord) {
          unusual = true;
          digitsOnly = false;
        }
      }
      if (inWord) {
        if (start < 0) start = index;
        // A character outside the basic plane takes two code units.
        if (code >= 0xd800 && code <= 0xdbff) index++;
      } else if (start >= 0) {
        flush(index);
      }
    }
  }

  /** A token with apostrophes, accents or non-Latin letters: folded, and segmented where needed. */
  private emitUnusual(rawToken: string, visit: (term: Term) => void): void {
    let token = rawToken;
    if (token.includes("'") || token.includes("’")) {
      // "note's" is "note"; "don't" is one word.
      token = token.replace(/['’]s$/, "").replace(/['’]/g, "");
      if (token.length === 0) return;
    }
    const folded = foldText(token);
    for (const piece of folded === token ? [token] : (folded.match(TOKEN) ?? [])) {
      if (UNSPACED_SCRIPT.test(piece)) {
        for (const word of this.segment(piece)) this.emit(word, visit);
      } else {
        this.emit(piece, visit);
      }
    }
  }

  private isWordCode(code: number, text: string, index: number): boolean {
    if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    return this.kindOf(code, text, index) === "word";
  }

  /** What a character outside ASCII is to the scan, kept per character (a vault uses few). */
  private kindOf(code: number, text: string, index: number): CharacterKind {
    const character = String.fromCodePoint(text.codePointAt(index) ?? code);
    let kind = this.characterKinds.get(character);
    if (kind === undefined) {
      kind = EMOJI_MODIFIER.test(character) ? "modifier" : PICTOGRAPH.test(character) ? "pictograph" : WORD_CHARACTER.test(character) ? "word" : "other";
      if (this.characterKinds.size < 65_536) this.characterKinds.set(character, kind);
    }
    return kind;
  }

  /** One lookup per token: the cache holds each token's term, or null for a word left out. */
  private emit(token: string, visit: (term: Term) => void): void {
    let term = this.termOfToken.get(token);
    if (term === undefined) {
      term = token.length > MAX_TOKEN_LENGTH || ENGLISH_STOP_WORDS.has(token) ? null : new Term(stemEnglish(token));
      if (this.termOfToken.size >= this.maxCachedTerms) {
        this.termOfToken.clear();
      }
      this.termOfToken.set(token, term);
    }
    if (term !== null) visit(term);
  }

  private segment(run: string): string[] {
    if (this.segmenter === undefined) {
      this.segmenter = typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;
    }
    if (this.segmenter === null) return characterPairs(run);
    if (!CJK.test(run)) {
      const words: string[] = [];
      for (const piece of this.segmenter.segment(run)) {
        if (piece.isWordLike) words.push(piece.segment);
      }
      return words;
    }
    return segmentCjk(this.segmenter, run);
  }
}

/** A letter, digit or mark of a word; an emoji; what modifies an emoji; anything else. */
type CharacterKind = "word" | "pictograph" | "modifier" | "other";

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Lower case, compatibility forms unified (full-width letters, ligatures) and diacritics dropped. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize("NFKD")
    .replace(FOLDED_MARKS, "")
    .normalize("NFC")
    // Compatibility forms may decompose to capitals (mathematical "𝐀" is "A").
    .toLowerCase()
    .replace(FOLDABLE_LETTER, (letter) => LETTER_FOLDS[letter] ?? letter);
}

/**
 * Chinese and Japanese text: the segmenter's words, and besides them every pair of adjacent Chinese
 * characters or kana, across the segmenter's word boundaries too. The segmenter's dictionary cuts
 * the same characters differently by context ("烤面包" one word in a title, "面包" alone in a
 * question; "笔记本" as "笔记"+"本"), and a phrase cut short breaks its words apart ("見つかりませ"
 * comes out as single kana where "見つかりません" does not; "ーバル" where the note says
 * "グローバル"), so its words alone often fail to meet; the pairs always do. A word of two such
 * characters is its own pair and comes out once; a word of one comes out as itself. Latin letters,
 * digits and other scripts in the same run stay the segmenter's words.
 */
function segmentCjk(segmenter: Intl.Segmenter, run: string): string[] {
  const terms: string[] = [];
  const words = [...segmenter.segment(run)].map(({ segment, isWordLike }) => (isWordLike ? segment : ""));
  let previous = "";
  words.forEach((segment, position) => {
    if (segment === "") {
      previous = "";
      return;
    }
    const characters = [...segment];
    const first = characters[0] ?? "";
    const last = characters[characters.length - 1] ?? "";
    const startsStretch = previous === "" && CJK.test(first);
    if (previous !== "" && CJK.test(first)) terms.push(`${previous}${first}`);
    if (CJK_ONLY.test(segment)) {
      if (characters.length !== 2) terms.push(segment);
      for (let index = 0; index + 1 < characters.length; index++) terms.push(`${characters[index]}${characters[index + 1]}`);
    } else {
      terms.push(segment);
    }
    // The first and last character of a stretch come out alone too: a phrase cut at that point
    // leaves a single character there ("符" of "标识符“{0}”"), which then meets it.
    const next = words[position + 1] ?? "";
    const endsStretch = CJK.test(last) && !(next !== "" && CJK.test([...next][0] ?? ""));
    if (characters.length > 1) {
      if (startsStretch) terms.push(first);
      if (endsStretch && CJK_ONLY.test(segment)) terms.push(last);
    }
    previous = CJK.test(last) ? last : "";
  });
  return terms;
}

/** Overlapping pairs of characters, the usual fallback for CJK text without a word segmenter. */
function characterPairs(run: string): string[] {
  const characters = [...run];
  if (characters.length < 2) return characters;
  const pairs: string[] = [];
  for (let index = 0; index + 1 < characters.length; index++) pairs.push(`${characters[index]}${characters[index + 1]}`);
  return pairs;
}

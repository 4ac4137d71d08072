import { parseMarkdownMetadata } from "../vault/markdownMetadata";
import { blendRankings } from "./fuseRankings";
import type { VaultPort } from "../vault/VaultPort";
import type { IndexedDocument, InvertedIndex } from "./InvertedIndex";
import { extractFieldTerms, noteTitle } from "./noteFields";
import type { NoteVectors } from "./noteVectors";
import type { RankingParameters } from "./ranking";
import type { Tokenizer } from "./tokenizer";

/** A note related to another, with why. */
export interface SimilarNote {
  path: string;
  title: string;
  /** The word match (cosine) scaled so the best one scores 1, plus 0.3 for a link either way (0.6 both ways). */
  score: number;
  /** The shared words that add most to the word match, as the first note writes them. */
  sharedTerms: string[];
  sharedTags: string[];
  /** How the two are linked: this note links to it, it links here, or both. */
  link: "links-to" | "linked-from" | "both" | null;
  /** How close in meaning (cosine of the embeddings), when embeddings are on and found it. */
  meaning?: number;
}

export interface SimilarContext {
  index: InvertedIndex;
  /** The notes' word vectors over `index`. */
  vectors: NoteVectors;
  tokenizer: Tokenizer;
  vault: VaultPort;
  ranking: RankingParameters;
}

export interface SimilarOptions {
  limit: number;
  /** Which notes may be listed (the note itself never is). */
  accept?: (document: IndexedDocument) => boolean;
}

/** What a link in either direction adds to a score (the best word match scores 1). */
const LINK_BONUS = 0.3;

/**
 * The notes whose words are closest to this note's: cosine between tf-idf vectors over the whole
 * of both notes (see NoteVectors; title, aliases, tags and headings count more than the body), so
 * a note with no embeddings at all finds its neighbours by the words they share. Links in either
 * direction add to a note's score (a linked note is listed even without shared words). Scores are
 * scaled so the best word match is 1.
 */
export async function similarNotes(context: SimilarContext, path: string, text: string, options: SimilarOptions): Promise<SimilarNote[]> {
  const { index, tokenizer } = context;
  const vector = context.vectors.vectorOf(extractFieldTerms(path, text, tokenizer));
  const accept = (document: IndexedDocument) => document.path !== path && (!options.accept || options.accept(document));
  const hits = context.vectors.nearest(vector, options.limit * 2, accept);
  const best = hits[0]?.score ?? 1;
  // Path -> word score (NaN: a candidate only for a link to this note, see below).
  const candidates = new Map<string, number>(hits.map((hit) => [hit.document.path, hit.score / best]));

  // Links: this note's targets are found by name; a candidate that links here is seen in its text.
  const metadata = parseMarkdownMetadata(text);
  const linksTo = new Set<string>();
  for (const link of metadata.links) {
    const target = resolveLink(index, link.link);
    if (target && target !== path) {
      const document = index.get(target);
      if (document && accept(document)) linksTo.add(target);
    }
  }
  for (const target of linksTo) if (!candidates.has(target)) candidates.set(target, 0);
  // A note that links here has the note's name in its text: those are looked at for the link.
  const titleQuery = new Map(tokenizer.tokenize(noteTitle(path)).map((term) => [term, 1]));
  const mayLinkHere = index.search(titleQuery, Math.max(50, options.limit * 5), context.ranking, accept).map((hit) => hit.document.path);

  const ownTags = new Set(metadata.tags.map((tag) => tag.toLowerCase()));
  const surface = surfaceForms(text, tokenizer);
  const title = noteTitle(path).toLowerCase();
  const scored: Array<{ path: string; score: number; link: SimilarNote["link"]; text: string }> = [];
  for (const candidate of mayLinkHere) if (!candidates.has(candidate)) candidates.set(candidate, Number.NaN);
  // Read together: most of the time here is waiting for the files.
  const texts = await Promise.all([...candidates.keys()].map((candidate) => context.vault.read(candidate).catch(() => null)));
  let position = 0;
  for (const [candidate, scoreOrNaN] of candidates) {
    const candidateText = texts[position++];
    if (candidateText === null || candidateText === undefined) continue;
    const candidateLinks = parseMarkdownMetadata(candidateText).links;
    const linkedFrom = candidateLinks.some((link) => linkName(link.link) === title || link.link.replace(/\.md$/i, "") === path.replace(/\.md$/i, ""));
    const link = linksTo.has(candidate) ? (linkedFrom ? "both" : "links-to") : linkedFrom ? "linked-from" : null;
    // A note found only by the name is listed only when it does link here.
    if (Number.isNaN(scoreOrNaN) && !link) continue;
    const base = Number.isNaN(scoreOrNaN) ? 0 : scoreOrNaN;
    scored.push({ path: candidate, score: base + (link === "both" ? 2 * LINK_BONUS : link ? LINK_BONUS : 0), link, text: candidateText });
  }
  // Ranked by the exact score (rounding first would let the path order decide near-ties); the
  // why is worked out only for the notes listed.
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return scored.slice(0, options.limit).map(({ path: candidate, score, link, text: candidateText }) => {
    // The words that add most to this pair's cosine: this note's weight times the other's.
    const candidateVector = context.vectors.vectorOf(extractFieldTerms(candidate, candidateText, tokenizer));
    const sharedTerms = [...vector]
      .map(([term, weight]) => ({ term, share: weight * (candidateVector.get(term) ?? 0) }))
      .filter(({ share }) => share > 0)
      .sort((a, b) => b.share - a.share || a.term.localeCompare(b.term))
      .slice(0, 3)
      .map(({ term }) => surface.get(term) ?? term);
    const sharedTags = parseMarkdownMetadata(candidateText).tags.filter((tag) => ownTags.has(tag.toLowerCase()));
    return { path: candidate, title: noteTitle(candidate), score: Math.round(score * 1000) / 1000, sharedTerms, sharedTags, link };
  });
}

/** The last part of a link target without ".md", lower case: what Obsidian matches a note's name by. */
function linkName(target: string): string {
  const name = target.slice(target.lastIndexOf("/") + 1);
  return (name.toLowerCase().endsWith(".md") ? name.slice(0, -3) : name).toLowerCase();
}

/** The indexed note a link points to: its exact path, else the first note of that name. */
function resolveLink(index: InvertedIndex, target: string): string | undefined {
  const withExtension = /\.md$/i.test(target) ? target : `${target}.md`;
  if (index.get(withExtension)) return withExtension;
  return index.pathsTitled(linkName(target))[0];
}

/** Each term's first spelling in the text ("budgets" for the term "budget"), for showing. */
function surfaceForms(text: string, tokenizer: Tokenizer): Map<string, string> {
  const forms = new Map<string, string>();
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (forms.size > 5000) break;
    const terms = tokenizer.tokenize(word);
    // A run of Han text holds several words: each is shown as the term itself.
    for (const term of terms) if (!forms.has(term)) forms.set(term, terms.length === 1 ? word.toLowerCase() : term);
  }
  return forms;
}

/**
 * The word list and the meaning list blended as search blends them (blendRankings): a note both
 * find ranks highest; one found by meaning alone is listed with its closeness and no words. The
 * score is scaled so the best note has 1.
 */
export function fuseSimilar(byWords: readonly SimilarNote[], byMeaning: ReadonlyArray<{ path: string; score: number }>, limit: number): SimilarNote[] {
  const fused = blendRankings(byWords, byMeaning, limit);
  const best = fused[0]?.score ?? 1;
  const words = new Map(byWords.map((note) => [note.path, note]));
  const meaning = new Map(byMeaning.map((hit) => [hit.path, hit.score]));
  return fused.map(({ path, score }) => {
    const note = words.get(path) ?? { path, title: noteTitle(path), score: 0, sharedTerms: [], sharedTags: [], link: null };
    const closeness = meaning.get(path);
    return { ...note, score: Math.round((score / best) * 1000) / 1000, ...(closeness !== undefined ? { meaning: Math.round(closeness * 1000) / 1000 } : {}) };
  });
}

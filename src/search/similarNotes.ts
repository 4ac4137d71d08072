import { parseMarkdownMetadata } from "../vault/markdownMetadata";
import { blendRankings } from "./fuseRankings";
import type { VaultPort } from "../vault/VaultPort";
import type { IndexedDocument, InvertedIndex } from "./InvertedIndex";
import { extractFieldTerms, FIELD_NAMES, noteTitle, type FieldName } from "./noteFields";
import { inverseDocumentFrequency, type RankingParameters } from "./ranking";
import type { Tokenizer } from "./tokenizer";

/** A note related to another, with why. */
export interface SimilarNote {
  path: string;
  title: string;
  /** The word match scaled so the best one scores 1, plus 0.3 for a link either way (0.6 both ways). */
  score: number;
  /** The most distinctive words both notes use, as the first note writes them. */
  sharedTerms: string[];
  sharedTags: string[];
  /** How the two are linked: this note links to it, it links here, or both. */
  link: "links-to" | "linked-from" | "both" | null;
  /** How close in meaning (cosine of the embeddings), when embeddings are on and found it. */
  meaning?: number;
}

export interface SimilarContext {
  index: InvertedIndex;
  tokenizer: Tokenizer;
  vault: VaultPort;
  ranking: RankingParameters;
}

export interface SimilarOptions {
  limit: number;
  /** Which notes may be listed (the note itself never is). */
  accept?: (document: IndexedDocument) => boolean;
}

/** How much a term in each field says about what a note is about. */
const FIELD_WEIGHT: Readonly<Record<FieldName, number>> = { body: 1, title: 3, headings: 2, aliases: 3, tags: 3, path: 0.5 };
/** The most distinctive terms the query is made of. */
const QUERY_TERMS = 60;
/** What a link in either direction adds to a score (the best word match scores 1). */
const LINK_BONUS = 0.3;

/**
 * "More like this": the note's most distinctive terms (by field: title, aliases, tags and
 * headings count more than the body; tf saturated, times idf), as one weighted query over the
 * index, so a note with no embeddings at all finds its neighbours by the words they share.
 * Terms no other note has, or that most notes have, say nothing and are left out. Links in
 * either direction add to a note's score (a linked note is listed even without shared words).
 * Scores are scaled so the best word match is 1.
 */
export async function similarNotes(context: SimilarContext, path: string, text: string, options: SimilarOptions): Promise<SimilarNote[]> {
  const { index, tokenizer } = context;
  const documentCount = Math.max(1, index.documentCount);
  const fields = extractFieldTerms(path, text, tokenizer);
  const weights = new Map<string, number>();
  FIELD_NAMES.forEach((field, position) => {
    const counts = new Map<string, number>();
    for (const term of fields[position] ?? []) counts.set(term.text, (counts.get(term.text) ?? 0) + 1);
    for (const [term, count] of counts) weights.set(term, (weights.get(term) ?? 0) + FIELD_WEIGHT[field] * (count / (count + 1.2)));
  });
  const query = new Map<string, number>();
  const scored = [...weights]
    .map(([term, weight]) => {
      const frequency = index.documentFrequency(term);
      // Half the notes or more is "most notes" only once there are enough notes to say so.
      const useful = frequency >= 2 && (documentCount < 20 || frequency <= documentCount * 0.5);
      return { term, score: useful ? weight * inverseDocumentFrequency(documentCount, frequency) : 0 };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.term.localeCompare(b.term))
    .slice(0, QUERY_TERMS);
  const top = scored[0]?.score ?? 1;
  for (const { term, score } of scored) query.set(term, score / top);

  const accept = (document: IndexedDocument) => document.path !== path && (!options.accept || options.accept(document));
  const hits = index.search(query, options.limit * 2, context.ranking, accept);
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
  const results: SimilarNote[] = [];
  for (const candidate of mayLinkHere) if (!candidates.has(candidate)) candidates.set(candidate, Number.NaN);
  for (const [candidate, scoreOrNaN] of candidates) {
    let candidateText: string;
    try {
      candidateText = await context.vault.read(candidate);
    } catch {
      continue;
    }
    const candidateMetadata = parseMarkdownMetadata(candidateText);
    const linkedFrom = candidateMetadata.links.some((link) => linkName(link.link) === title || link.link.replace(/\.md$/i, "") === path.replace(/\.md$/i, ""));
    const link = linksTo.has(candidate) ? (linkedFrom ? "both" : "links-to") : linkedFrom ? "linked-from" : null;
    // A note found only by the name is listed only when it does link here.
    if (Number.isNaN(scoreOrNaN) && !link) continue;
    const base = Number.isNaN(scoreOrNaN) ? 0 : scoreOrNaN;
    const candidateTerms = new Set(tokenizer.tokenize(candidateText));
    const sharedTerms = scored
      .filter(({ term }) => candidateTerms.has(term))
      .slice(0, 3)
      .map(({ term }) => surface.get(term) ?? term);
    const sharedTags = candidateMetadata.tags.filter((tag) => ownTags.has(tag.toLowerCase()));
    const score = base + (link === "both" ? 2 * LINK_BONUS : link ? LINK_BONUS : 0);
    results.push({ path: candidate, title: noteTitle(candidate), score: Math.round(score * 1000) / 1000, sharedTerms, sharedTags, link });
  }
  return results.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, options.limit);
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

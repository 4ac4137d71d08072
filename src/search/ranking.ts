import type { FieldName } from "./noteFields";

/**
 * BM25F: each field's term count is weighted and normalized by that field's length before one
 * saturation, so a word in the title counts more than in the body without a note scoring twice
 * for the same word (Robertson, Zaragoza & Taylor, "Simple BM25 extension to multiple weighted
 * fields", CIKM 2004).
 */
export interface RankingParameters {
  /** Term-frequency saturation: how fast extra occurrences stop adding to the score. */
  k1: number;
  /** Per field: how much one occurrence counts (`weight`) and how much length normalizes (`b`). */
  fields: Readonly<Record<FieldName, FieldParameters>>;
}

export interface FieldParameters {
  weight: number;
  /** 0: length ignored; 1: count fully divided by length relative to the average. */
  b: number;
}

/**
 * Chosen from the literature and from what a note's parts mean, not fitted to a test set
 * (designdocs/SEARCH.md gives the reasons and the measurements):
 * - k1 1.2 and body b 0.75 are Robertson's standard values;
 * - the title and aliases name the note, so a word there counts as three in the body; headings
 *   and tags are the author's own summary of the text, two; folder names give context, one;
 * - short fields get a milder length normalization (b 0.5): one more word in a title says little.
 */
export const DEFAULT_RANKING: RankingParameters = {
  k1: 1.2,
  fields: {
    body: { weight: 1, b: 0.75 },
    title: { weight: 3, b: 0.5 },
    headings: { weight: 2, b: 0.5 },
    aliases: { weight: 3, b: 0.5 },
    tags: { weight: 2, b: 0.5 },
    path: { weight: 1, b: 0.5 },
  },
};

/** Robertson-Sparck Jones idf as Lucene computes it (never negative, even for very common terms). */
export function inverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

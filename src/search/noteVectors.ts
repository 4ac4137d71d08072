import { FIELD_COUNT, FIELD_NAMES, type FieldName, type FieldTerms } from "./noteFields";
import { packedCount, type IndexedDocument, type InvertedIndex, type ScoredDocument } from "./InvertedIndex";
import { TopHits } from "./TopHits";

/**
 * How much one occurrence in each field counts in a note's word vector: the title, aliases and
 * tags name the note (3), headings summarize it (2). The folder path counts for nothing: notes
 * are related by what they say, and a folder already groups its notes where the user keeps them.
 */
export const VECTOR_FIELD_WEIGHTS: Readonly<Record<FieldName, number>> = { body: 1, title: 3, headings: 2, aliases: 3, tags: 3, path: 0 };
const FIELD_WEIGHTS = FIELD_NAMES.map((name) => VECTOR_FIELD_WEIGHTS[name]);
/**
 * The idf is softened (raised to 0.8): the words a group of notes shares, common in the vault but
 * not everywhere, then weigh a little more against a rare word two notes happen to share once.
 */
const IDF_POWER = 0.8;

/** 1 + ln(n) for the whole counts a posting can give, so the scoring loop takes no logarithm. */
const LOG_WEIGHTS = Float64Array.from({ length: 4096 }, (_, count) => (count > 0 ? 1 + Math.log(count) : 0));

/** A term's weight from its field-weighted count in a note: 1 + ln(count), as in the usual tf-idf. */
function termFrequencyWeight(weightedCount: number): number {
  if (Number.isInteger(weightedCount) && weightedCount < LOG_WEIGHTS.length) return LOG_WEIGHTS[weightedCount] ?? 0;
  return weightedCount > 0 ? 1 + Math.log(weightedCount) : 0;
}

/** A term's idf weight; a term only one note has (or every note) can relate nothing and weighs 0. */
export function vectorIdf(documentCount: number, frequency: number): number {
  return frequency >= 2 && frequency < documentCount ? Math.log(documentCount / frequency) ** IDF_POWER : 0;
}

/** A posting's weight before idf: 1 + ln of its field-weighted count. */
function postingWeight(packed: number): number {
  return termFrequencyWeight(packedWeightedCount(packed));
}

function packedWeightedCount(packed: number): number {
  // Most postings are body words only: the count is the packed value itself.
  if (packed < 0x1000) return packed;
  let count = 0;
  for (let field = 0; field < FIELD_COUNT; field++) count += (FIELD_WEIGHTS[field] ?? 0) * packedCount(packed, field);
  return count;
}

/**
 * Notes as tf-idf vectors over the index's terms (field-weighted count, 1 + ln of it, times the
 * softened idf), compared by cosine: the relatedness behind related notes. Each note's vector
 * length is computed in one pass over the postings and kept until the index changes.
 */
export class NoteVectors {
  private lengths: Float64Array | null = null;
  private lengthsGeneration = -1;

  constructor(private readonly index: InvertedIndex) {}

  /** A note's vector from its own terms (the note need not be indexed): term -> weight. */
  vectorOf(fields: FieldTerms): Map<string, number> {
    const counts = new Map<string, number>();
    FIELD_NAMES.forEach((_, field) => {
      const weight = FIELD_WEIGHTS[field] ?? 0;
      if (weight > 0) for (const term of fields[field] ?? []) counts.set(term.text, (counts.get(term.text) ?? 0) + weight);
    });
    const documentCount = this.index.documentCount;
    const vector = new Map<string, number>();
    for (const [term, count] of counts) {
      const weight = termFrequencyWeight(count) * vectorIdf(documentCount, this.index.documentFrequency(term));
      if (weight > 0) vector.set(term, weight);
    }
    return vector;
  }

  /**
   * The `limit` indexed notes whose vectors are closest to `vector` by cosine, best first, among
   * those `accept` lets through; the score is the cosine (0 to 1).
   */
  nearest(vector: ReadonlyMap<string, number>, limit: number, accept: (document: IndexedDocument) => boolean): ScoredDocument[] {
    const lengths = this.vectorLengths();
    const scores = new Float64Array(this.index.idLimit);
    const touched: number[] = [];
    const documentCount = this.index.documentCount;
    let queryLength = 0;
    for (const [term, queryWeight] of vector) {
      queryLength += queryWeight * queryWeight;
      const idf = vectorIdf(documentCount, this.index.documentFrequency(term));
      if (idf > 0) this.index.accumulate(term, queryWeight * idf, postingWeight, scores, touched);
    }
    const top = new TopHits(limit);
    const norm = Math.sqrt(queryLength) || 1;
    for (const id of touched) {
      const document = this.index.documentById(id);
      if (document && accept(document)) top.offer(id, (scores[id] ?? 0) / ((lengths[id] ?? 0) * norm || 1));
    }
    return top.sorted().map(({ id, score }) => ({ document: this.index.documentById(id) as IndexedDocument, score }));
  }

  /** Each note's vector length by note number, made again only after the index changed. */
  private vectorLengths(): Float64Array {
    if (this.lengths && this.lengthsGeneration === this.index.generation) return this.lengths;
    const documentCount = this.index.documentCount;
    const squared = this.index.squaredVectorLengths((frequency) => vectorIdf(documentCount, frequency), postingWeight);
    for (let id = 0; id < squared.length; id++) squared[id] = Math.sqrt(squared[id] ?? 0);
    this.lengths = squared;
    this.lengthsGeneration = this.index.generation;
    return squared;
  }
}

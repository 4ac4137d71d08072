import { comparableTitle, FIELD_COUNT, FIELD_NAMES, noteTitle, type FieldTerms, type FieldTermSource } from "./noteFields";
import { inverseDocumentFrequency, type RankingParameters } from "./ranking";
import { DELTA_BLOCK_BITS, DELTA_BLOCK_MASK, PostingLists } from "./PostingLists";
import type { TimeSlicer } from "./TimeSlicer";
import type { Term } from "./tokenizer";
import { TopHits } from "./TopHits";

/** What the index keeps of a note besides its terms. Never mutated: an update replaces it. */
export interface IndexedDocument {
  readonly path: string;
  readonly mtime: number;
  readonly size: number;
  /** The day in a daily-note file name as yyyymmdd (20260314), or 0. */
  readonly dayKey: number;
}

export interface ScoredDocument {
  document: IndexedDocument;
  score: number;
}

/**
 * The notes, their field lengths and their terms' postings (see PostingLists), and BM25F over them.
 * A note added goes to the postings' delta; a removed note only loses its document entry (queries
 * skip it) until the next `compact()` drops its postings and renumbers what is left. So an edit
 * costs the note's own terms, never the whole vault.
 *
 * Each posting's frequencies are packed in 32 bits: the body count in the low 12 bits, then four
 * bits for each of title, headings, aliases, tags and path (counts beyond are capped, and
 * saturation makes them irrelevant long before).
 */
export class InvertedIndex {
  private documents: (IndexedDocument | undefined)[] = [];
  private lengths: Uint32Array = new Uint32Array(64 * FIELD_COUNT);
  private docIdByPath = new Map<string, number>();
  private readonly lengthSums = new Float64Array(FIELD_COUNT);
  private removedCount = 0;
  private changes = 0;
  /** Comparable title -> paths, in index order; made on first use, then kept by add and remove. */
  private titles: Map<string, string[]> | null = null;
  private postings = new PostingLists();
  private scores: Float64Array = new Float64Array(0);
  /** Per term id, the packed counts of the note being added (see `add`). */
  private scratch: Uint32Array = new Uint32Array(1024);
  private touched: Uint32Array = new Uint32Array(1024);

  /** Bumped by every change: what a cache of figures over all notes is checked against. */
  get generation(): number {
    return this.changes;
  }

  get documentCount(): number {
    return this.docIdByPath.size;
  }

  get termCount(): number {
    return this.postings.termCount;
  }

  /** Postings outside the packed base, plus removed notes not yet dropped: what `compact()` would fold in. */
  get pendingWork(): number {
    return this.postings.deltaPostings + this.removedCount;
  }

  get(path: string): IndexedDocument | undefined {
    const id = this.docIdByPath.get(path);
    return id === undefined ? undefined : this.documents[id];
  }

  paths(): IterableIterator<string> {
    return this.docIdByPath.keys();
  }

  /**
   * The notes whose title (file name) is `title` in comparable form, in index order: for exact
   * titles and links by name. The table is made on the first call (a pass over every path) and
   * kept current from then on, so a query or an edit never pays for the whole vault again.
   */
  pathsTitled(title: string): readonly string[] {
    if (!this.titles) {
      this.titles = new Map();
      for (const path of this.docIdByPath.keys()) this.addTitle(path);
    }
    return this.titles.get(comparableTitle(title)) ?? [];
  }

  private addTitle(path: string): void {
    const key = comparableTitle(noteTitle(path));
    const paths = this.titles?.get(key);
    if (paths) paths.push(path);
    else this.titles?.set(key, [path]);
  }

  private removeTitle(path: string): void {
    const key = comparableTitle(noteTitle(path));
    const paths = this.titles?.get(key);
    if (!paths) return;
    const kept = paths.filter((candidate) => candidate !== path);
    if (kept.length > 0) this.titles?.set(key, kept);
    else this.titles?.delete(key);
  }

  /** Every live note, for filters that do not depend on terms (a time range with no match). */
  *allDocuments(): IterableIterator<IndexedDocument> {
    for (const document of this.documents) if (document) yield document;
  }

  /**
   * Adds a note, replacing the one at the same path. `fieldTerms` follows `FIELD_NAMES`, as lists,
   * or as a source that hands out each term with its field (so a huge note's terms need not be held
   * in a list first).
   */
  add(document: IndexedDocument, fieldTerms: FieldTerms | FieldTermSource): void {
    this.remove(document.path);
    const id = this.documents.length;
    this.documents.push(document);
    this.changes++;
    this.docIdByPath.set(document.path, id);
    if (this.titles) this.addTitle(document.path);
    if (this.lengths.length < (id + 1) * FIELD_COUNT) this.lengths = grow(this.lengths, (id + 1) * FIELD_COUNT);

    // Counts are gathered per term id in a scratch array (cheaper than a map per note); `touched`
    // lists the term ids met, in a typed array kept between notes.
    let touchedCount = 0;
    const fieldLengths = new Uint32Array(FIELD_COUNT);
    const count = (field: number, term: Term): void => {
      fieldLengths[field] = (fieldLengths[field] ?? 0) + 1;
      const termId = this.termIdOf(term);
      if (termId >= this.scratch.length) this.scratch = grow(this.scratch, termId + 1, 1024);
      const current = this.scratch[termId] ?? 0;
      if (current === 0) {
        if (touchedCount >= this.touched.length) this.touched = grow(this.touched, touchedCount + 1, 1024);
        this.touched[touchedCount++] = termId;
      }
      const shift = SHIFTS[field] ?? 0;
      if (((current >>> shift) & (MAXIMA[field] ?? 0)) < (MAXIMA[field] ?? 0)) this.scratch[termId] = current + 2 ** shift;
    };
    if (typeof fieldTerms === "function") fieldTerms(count);
    else for (let field = 0; field < FIELD_COUNT; field++) for (const term of fieldTerms[field] ?? []) count(field, term);
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.lengths[id * FIELD_COUNT + field] = fieldLengths[field] ?? 0;
      this.lengthSums[field] = (this.lengthSums[field] ?? 0) + (fieldLengths[field] ?? 0);
    }
    for (let position = 0; position < touchedCount; position++) {
      const termId = this.touched[position] ?? 0;
      this.postings.append(termId, id, this.scratch[termId] ?? 0);
      this.scratch[termId] = 0;
    }
  }

  /** Forgets a note; returns false when it was not indexed. */
  remove(path: string): boolean {
    const id = this.docIdByPath.get(path);
    if (id === undefined) return false;
    this.docIdByPath.delete(path);
    this.documents[id] = undefined;
    if (this.titles) this.removeTitle(path);
    for (let field = 0; field < FIELD_COUNT; field++) {
      this.lengthSums[field] = (this.lengthSums[field] ?? 0) - (this.lengths[id * FIELD_COUNT + field] ?? 0);
    }
    this.removedCount++;
    this.changes++;
    return true;
  }

  /** Live notes containing `term` in any field. */
  documentFrequency(term: string): number {
    const termId = this.postings.find(term);
    return termId === undefined ? 0 : this.liveFrequency(termId);
  }

  /** The best `limit` notes for weighted query terms, best first, among those `accept` lets through. */
  search(
    queryTerms: ReadonlyMap<string, number>,
    limit: number,
    parameters: RankingParameters,
    accept?: (document: IndexedDocument) => boolean,
  ): ScoredDocument[] {
    const documentCount = this.documentCount;
    if (documentCount === 0 || limit <= 0) return [];
    if (this.scores.length < this.documents.length) this.scores = new Float64Array(Math.max(64, this.documents.length * 1.25));
    const scores = this.scores;
    const touched: number[] = [];
    const weights = FIELD_NAMES.map((name) => parameters.fields[name].weight);
    const bs = FIELD_NAMES.map((name) => parameters.fields[name].b);
    const averages = FIELD_NAMES.map((_, field) => (this.lengthSums[field] ?? 0) / documentCount || 1);
    const k1 = parameters.k1;
    const lengths = this.lengths;
    const documents = this.documents;

    const scorePosting = (id: number, packed: number, termWeight: number): void => {
      if (documents[id] === undefined) return;
      let weighted = 0;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const count = (packed >>> (SHIFTS[field] ?? 0)) & (MAXIMA[field] ?? 0);
        if (count === 0) continue;
        const b = bs[field] ?? 0;
        const norm = 1 - b + (b * (lengths[id * FIELD_COUNT + field] ?? 0)) / (averages[field] ?? 1);
        weighted += ((weights[field] ?? 0) * count) / norm;
      }
      if (weighted === 0) return;
      if (scores[id] === 0) touched.push(id);
      scores[id] = (scores[id] ?? 0) + (termWeight * weighted * (k1 + 1)) / (k1 + weighted);
    };

    for (const [term, queryWeight] of queryTerms) {
      const termId = this.postings.find(term);
      if (termId === undefined || queryWeight <= 0) continue;
      const frequency = this.liveFrequency(termId);
      if (frequency === 0) continue;
      const termWeight = queryWeight * inverseDocumentFrequency(documentCount, frequency);
      const { docs, frequencies, start, end, deltaStart, deltaDocs, deltaFrequencies, deltaNext } = this.postings.raw(termId);
      for (let index = start; index < end; index++) scorePosting(docs[index] ?? 0, frequencies[index] ?? 0, termWeight);
      for (let entry = deltaStart; entry >= 0; ) {
        const block = entry >>> DELTA_BLOCK_BITS;
        const offset = entry & DELTA_BLOCK_MASK;
        scorePosting(deltaDocs[block]?.[offset] ?? 0, deltaFrequencies[block]?.[offset] ?? 0, termWeight);
        entry = deltaNext[block]?.[offset] ?? -1;
      }
    }

    const top = new TopHits(limit);
    for (const id of touched) {
      const document = documents[id];
      const score = scores[id] ?? 0;
      scores[id] = 0;
      // The filter (a project's scope, a time range) is asked only of notes that would make the list.
      if (document && top.wouldTake(score) && (!accept || accept(document))) top.offer(id, score);
    }
    return top.sorted().map(({ id, score }) => ({ document: documents[id] as IndexedDocument, score }));
  }

  /**
   * The score a text that is not indexed would get for the query as a note of this index: BM25F
   * with the index's idf and field averages, its counts capped as the index caps them. The note
   * index scores a PDF's pages with it, so a long PDF is ranked by its best page as if each page
   * were a note (see NoteIndex.rank).
   */
  scoreUnindexed(queryTerms: ReadonlyMap<string, number>, fieldTerms: FieldTerms, parameters: RankingParameters): number {
    const documentCount = this.documentCount;
    if (documentCount === 0) return 0;
    const counts = new Map<string, number[]>();
    const lengths = fieldTerms.map((terms) => terms.length);
    fieldTerms.forEach((terms, field) => {
      for (const term of terms) {
        if (!queryTerms.has(term.text)) continue;
        const perField = counts.get(term.text) ?? new Array<number>(FIELD_COUNT).fill(0);
        perField[field] = Math.min((perField[field] ?? 0) + 1, MAXIMA[field] ?? 0);
        counts.set(term.text, perField);
      }
    });
    const k1 = parameters.k1;
    let score = 0;
    for (const [term, perField] of counts) {
      const queryWeight = queryTerms.get(term) ?? 0;
      const termId = this.postings.find(term);
      const frequency = termId === undefined ? 0 : this.liveFrequency(termId);
      if (queryWeight <= 0 || frequency === 0) continue;
      let weighted = 0;
      FIELD_NAMES.forEach((name, field) => {
        const count = perField[field] ?? 0;
        if (count === 0) return;
        const { weight, b } = parameters.fields[name];
        const average = (this.lengthSums[field] ?? 0) / documentCount || 1;
        weighted += (weight * count) / (1 - b + (b * (lengths[field] ?? 0)) / average);
      });
      score += (queryWeight * inverseDocumentFrequency(documentCount, frequency) * weighted * (k1 + 1)) / (k1 + weighted);
    }
    return score;
  }

  /** The live note numbered `id` (numbers run below `idLimit`). */
  documentById(id: number): IndexedDocument | undefined {
    return this.documents[id];
  }

  /** Every note number so far is below this (removed notes keep theirs until compaction). */
  get idLimit(): number {
    return this.documents.length;
  }

  /**
   * Adds `weight(term's live note count) × rowWeight[packed]`-style products into `scores` by note
   * number, for each live posting of `term`: the inner loop of vector scoring, over the raw arrays
   * (a callback per posting would cost it most of its speed). `postingWeight` turns a posting's
   * packed counts into its weight. Returns the ids whose score was 0 before, in `touched`.
   */
  accumulate(term: string, factor: number, postingWeight: (packed: number) => number, scores: Float64Array, touched: number[]): void {
    const termId = this.postings.find(term);
    if (termId === undefined) return;
    const { docs, frequencies, start, end, deltaStart, deltaDocs, deltaFrequencies, deltaNext } = this.postings.raw(termId);
    const documents = this.documents;
    for (let index = start; index < end; index++) {
      const id = docs[index] ?? 0;
      if (documents[id] === undefined) continue;
      if (scores[id] === 0) touched.push(id);
      scores[id] = (scores[id] ?? 0) + factor * postingWeight(frequencies[index] ?? 0);
    }
    for (let entry = deltaStart; entry >= 0; ) {
      const block = entry >>> DELTA_BLOCK_BITS;
      const offset = entry & DELTA_BLOCK_MASK;
      const id = deltaDocs[block]?.[offset] ?? 0;
      const packed = deltaFrequencies[block]?.[offset] ?? 0;
      entry = deltaNext[block]?.[offset] ?? -1;
      if (documents[id] === undefined) continue;
      if (scores[id] === 0) touched.push(id);
      scores[id] = (scores[id] ?? 0) + factor * postingWeight(packed);
    }
  }

  /**
   * Per note number, Σ over its terms of (termFactor(term's live note count) × postingWeight)²:
   * the squared length of every note's vector, in one pass over all postings.
   */
  squaredVectorLengths(termFactor: (frequency: number) => number, postingWeight: (packed: number) => number): Float64Array {
    const squared = new Float64Array(this.documents.length);
    const documents = this.documents;
    for (let termId = 0; termId < this.postings.termCount; termId++) {
      const factor = termFactor(this.liveFrequency(termId));
      if (factor === 0) continue;
      const { docs, frequencies, start, end, deltaStart, deltaDocs, deltaFrequencies, deltaNext } = this.postings.raw(termId);
      for (let index = start; index < end; index++) {
        const id = docs[index] ?? 0;
        const weight = factor * postingWeight(frequencies[index] ?? 0);
        squared[id] = (squared[id] ?? 0) + weight * weight;
      }
      for (let entry = deltaStart; entry >= 0; ) {
        const block = entry >>> DELTA_BLOCK_BITS;
        const offset = entry & DELTA_BLOCK_MASK;
        const weight = factor * postingWeight(deltaFrequencies[block]?.[offset] ?? 0);
        const id = deltaDocs[block]?.[offset] ?? 0;
        squared[id] = (squared[id] ?? 0) + weight * weight;
        entry = deltaNext[block]?.[offset] ?? -1;
      }
    }
    // Removed notes keep their numbers until compaction: their figures mean nothing.
    for (let id = 0; id < squared.length; id++) if (documents[id] === undefined) squared[id] = 0;
    return squared;
  }

  /**
   * Drops removed notes and renumbers the rest, and folds the postings' delta into their packed
   * base, in slices (see TimeSlicer). The note tables are swapped only once the postings are done,
   * so a query between two slices sees the index as it was. No other change may run meanwhile.
   */
  async compact(slicer: TimeSlicer): Promise<void> {
    const newIdOf = new Int32Array(this.documents.length).fill(-1);
    const keptDocuments: IndexedDocument[] = [];
    this.documents.forEach((document, id) => {
      if (document) newIdOf[id] = keptDocuments.push(document) - 1;
    });
    const keptLengths = new Uint32Array(Math.max(64, keptDocuments.length) * FIELD_COUNT);
    for (let id = 0; id < newIdOf.length; id++) {
      const newId = newIdOf[id] ?? -1;
      if (newId >= 0) keptLengths.set(this.lengths.subarray(id * FIELD_COUNT, (id + 1) * FIELD_COUNT), newId * FIELD_COUNT);
    }
    this.postings = await this.postings.compacted(newIdOf, slicer);
    this.documents = keptDocuments;
    this.lengths = keptLengths;
    this.docIdByPath = new Map(keptDocuments.map((document, id) => [document.path, id]));
    this.removedCount = 0;
    this.changes++;
  }

  /** The packed arrays, for persisting. Only valid right after `compact()` (throws otherwise). */
  snapshot(): IndexSnapshot {
    if (this.pendingWork > 0) throw new Error("InvertedIndex.snapshot() needs a compacted index");
    return {
      documents: this.documents.slice() as IndexedDocument[],
      lengths: this.lengths.slice(0, this.documents.length * FIELD_COUNT),
      ...this.postings.packed(),
    };
  }

  /**
   * An index over a snapshot (from `snapshot()` or a decoded file), its lookup tables built in
   * slices: for a large vault they are the bulk of the work of loading.
   */
  static async restore(snapshot: IndexSnapshot, slicer: TimeSlicer): Promise<InvertedIndex> {
    const index = new InvertedIndex();
    index.documents = snapshot.documents.slice();
    index.lengths = grow(snapshot.lengths, Math.max(64, snapshot.documents.length) * FIELD_COUNT);
    for (let start = 0; start < snapshot.documents.length; start += 4_096) {
      const end = Math.min(snapshot.documents.length, start + 4_096);
      for (let id = start; id < end; id++) {
        index.docIdByPath.set((snapshot.documents[id] as IndexedDocument).path, id);
        for (let field = 0; field < FIELD_COUNT; field++) {
          index.lengthSums[field] = (index.lengthSums[field] ?? 0) + (snapshot.lengths[id * FIELD_COUNT + field] ?? 0);
        }
      }
      await slicer.checkpoint();
    }
    index.postings = await PostingLists.restore(snapshot, slicer);
    return index;
  }

  /** The term's id in these postings, remembered on the term object (see `Term`). */
  private termIdOf(term: Term): number {
    if (term.indexedBy === this.postings.identity) return term.indexId;
    term.indexId = this.postings.idOf(term.text);
    term.indexedBy = this.postings.identity;
    return term.indexId;
  }

  /** Live notes among a term's postings (all of them while no note was removed). */
  private liveFrequency(termId: number): number {
    if (this.removedCount === 0) return this.postings.count(termId);
    let count = 0;
    this.postings.forEach(termId, (id) => {
      if (this.documents[id] !== undefined) count++;
    });
    return count;
  }
}

/** The packed form of an index: what is persisted. Postings of term t: `offsets[t]..offsets[t+1]`. */
export interface IndexSnapshot {
  documents: IndexedDocument[];
  /** Per note, one length per field (`FIELD_COUNT` entries each). */
  lengths: Uint32Array;
  terms: string[];
  offsets: Uint32Array;
  docs: Uint32Array;
  frequencies: Uint32Array;
}

/** Bit position and cap of each field's count in a packed posting (see the class comment). */
const SHIFTS = [0, 12, 16, 20, 24, 28];
const MAXIMA = [0xfff, 0xf, 0xf, 0xf, 0xf, 0xf];

/** How often a note has a term in the field at `field` (`FIELD_NAMES` order), from its packed counts. */
export function packedCount(packed: number, field: number): number {
  return (packed >>> (SHIFTS[field] ?? 0)) & (MAXIMA[field] ?? 0);
}

function grow(array: Uint32Array, minimum: number, floor = 0): Uint32Array {
  if (array.length >= minimum) return array;
  const grown = new Uint32Array(Math.max(minimum, Math.ceil(array.length * 1.5), floor));
  grown.set(array);
  return grown;
}

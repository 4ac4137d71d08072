import { TermTable } from "./TermTable";
import type { TimeSlicer } from "./TimeSlicer";

export const DELTA_BLOCK_BITS = 16;
export const DELTA_BLOCK_MASK = (1 << DELTA_BLOCK_BITS) - 1;

/**
 * Which notes hold each term, in two parts:
 * - a packed base (compressed sparse rows: for term t, entries `offsets[t]..offsets[t+1]` of
 *   `docs` and `frequencies`), built by `compact()` and by loading, never changed in place; and
 * - a delta of notes added since: per term a chain through typed arrays (`deltaHead[t]`, then
 *   `deltaNext[...]`), appended to as notes change. The delta's entries sit in blocks of 65,536
 *   (entry e is at `block[e >>> DELTA_BLOCK_BITS][e & DELTA_BLOCK_MASK]`), so growing it never
 *   copies what is there: a vault's first build appends millions of entries, and copying them all
 *   at once would hold the thread for tens of milliseconds.
 * Note ids only grow between compactions, so a term's base entries, then its delta entries, are
 * in id order. Everything sits in typed arrays rather than an object per term or per posting: a
 * note of millions of distinct words costs a few bytes for each, not a list object each.
 */
export class PostingLists {
  /**
   * Whose term ids these are, for `Term.indexedBy`: a token of its own rather than the lists
   * themselves, so a term that outlives a compaction does not keep the old arrays alive.
   */
  readonly identity: object = {};
  private termIds = new TermTable();
  private offsets: Uint32Array = new Uint32Array(1);
  private docs: Uint32Array = new Uint32Array(0);
  private frequencies: Uint32Array = new Uint32Array(0);
  /** Per term: its first and last delta entry (-1: none), and how many it has. */
  private deltaHead: Int32Array = new Int32Array(0);
  private deltaTail: Int32Array = new Int32Array(0);
  private deltaLength: Uint32Array = new Uint32Array(0);
  /** Per delta entry, in blocks: the note, its packed counts and the term's next entry (-1: the last). */
  private deltaDocs: Uint32Array[] = [];
  private deltaFrequencies: Uint32Array[] = [];
  private deltaNext: Int32Array[] = [];
  /** Per delta entry, in blocks: its term, so compaction can read the delta in order, not term by term. */
  private deltaTerms: Uint32Array[] = [];
  private deltaCount = 0;

  get termCount(): number {
    return this.termIds.size;
  }

  /** Postings outside the packed base. */
  get deltaPostings(): number {
    return this.deltaCount;
  }

  /** The term's id, or undefined when no note ever had it. */
  find(term: string): number | undefined {
    return this.termIds.find(term);
  }

  /** The term's id, given one if it is new. */
  idOf(term: string): number {
    return this.termIds.idOf(term);
  }

  append(termId: number, docId: number, packedFrequencies: number): void {
    if (termId >= this.deltaHead.length) this.growTerms(termId + 1);
    const entry = this.deltaCount;
    const block = entry >>> DELTA_BLOCK_BITS;
    if (block >= this.deltaDocs.length) {
      this.deltaDocs.push(new Uint32Array(DELTA_BLOCK_MASK + 1));
      this.deltaFrequencies.push(new Uint32Array(DELTA_BLOCK_MASK + 1));
      this.deltaNext.push(new Int32Array(DELTA_BLOCK_MASK + 1));
      this.deltaTerms.push(new Uint32Array(DELTA_BLOCK_MASK + 1));
    }
    const offset = entry & DELTA_BLOCK_MASK;
    (this.deltaDocs[block] as Uint32Array)[offset] = docId;
    (this.deltaFrequencies[block] as Uint32Array)[offset] = packedFrequencies;
    (this.deltaNext[block] as Int32Array)[offset] = -1;
    (this.deltaTerms[block] as Uint32Array)[offset] = termId;
    const tail = this.deltaTail[termId] ?? -1;
    if (tail < 0) this.deltaHead[termId] = entry;
    else (this.deltaNext[tail >>> DELTA_BLOCK_BITS] as Int32Array)[tail & DELTA_BLOCK_MASK] = entry;
    this.deltaTail[termId] = entry;
    this.deltaLength[termId] = (this.deltaLength[termId] ?? 0) + 1;
    this.deltaCount++;
  }

  /** Every posting of a term, in note-id order. */
  forEach(termId: number, visit: (docId: number, packedFrequencies: number) => void): void {
    if (termId + 1 < this.offsets.length) {
      const end = this.offsets[termId + 1] ?? 0;
      for (let index = this.offsets[termId] ?? 0; index < end; index++) visit(this.docs[index] ?? 0, this.frequencies[index] ?? 0);
    }
    for (let entry = this.firstDelta(termId); entry >= 0; ) {
      const block = entry >>> DELTA_BLOCK_BITS;
      const offset = entry & DELTA_BLOCK_MASK;
      visit(this.deltaDocs[block]?.[offset] ?? 0, this.deltaFrequencies[block]?.[offset] ?? 0);
      entry = this.deltaNext[block]?.[offset] ?? -1;
    }
  }

  /**
   * A term's postings as raw arrays, for the scoring loop (a callback per posting costs it half its
   * speed): base entries `start..end` of `docs`/`frequencies`, then the delta chain from `deltaStart`
   * through `deltaNext` (-1 ends it), each entry's note and counts in `deltaDocs`/`deltaFrequencies`
   * (all three in blocks: see the class comment).
   */
  raw(termId: number): {
    docs: Uint32Array;
    frequencies: Uint32Array;
    start: number;
    end: number;
    deltaStart: number;
    deltaDocs: readonly Uint32Array[];
    deltaFrequencies: readonly Uint32Array[];
    deltaNext: readonly Int32Array[];
  } {
    const inBase = termId + 1 < this.offsets.length;
    return {
      docs: this.docs,
      frequencies: this.frequencies,
      start: inBase ? (this.offsets[termId] ?? 0) : 0,
      end: inBase ? (this.offsets[termId + 1] ?? 0) : 0,
      deltaStart: this.firstDelta(termId),
      deltaDocs: this.deltaDocs,
      deltaFrequencies: this.deltaFrequencies,
      deltaNext: this.deltaNext,
    };
  }

  /** How many postings a term has, live or not. */
  count(termId: number): number {
    const base = termId + 1 < this.offsets.length ? (this.offsets[termId + 1] ?? 0) - (this.offsets[termId] ?? 0) : 0;
    return base + (termId < this.deltaLength.length ? (this.deltaLength[termId] ?? 0) : 0);
  }

  /**
   * New lists with the delta folded into the base, notes renumbered by `newIdOf` (-1: dropped) and
   * terms left without postings dropped, built in slices. These lists are left as they are, so
   * readers meanwhile see them unchanged, and the caller swaps both at once.
   */
  async compacted(newIdOf: Int32Array, slicer: TimeSlicer): Promise<PostingLists> {
    // A counting sort: live postings counted per term (the base term by term, the delta in the
    // order it was written: following each term's chain would jump all over the delta), then
    // written at each term's cursor in the same order. Within a term the base comes first and the
    // delta after it, each in note order, and renumbering keeps that order.
    const termCount = this.termIds.size;
    const counts = new Uint32Array(termCount);
    for (let termId = 0; termId < termCount && termId + 1 < this.offsets.length; termId++) {
      const end = this.offsets[termId + 1] ?? 0;
      for (let index = this.offsets[termId] ?? 0; index < end; index++) if ((newIdOf[this.docs[index] ?? 0] ?? -1) >= 0) counts[termId] = (counts[termId] ?? 0) + 1;
      if ((termId & 1023) === 0) await slicer.checkpoint();
    }
    await this.forEachDeltaEntry(slicer, (termId, docId) => {
      if ((newIdOf[docId] ?? -1) >= 0) counts[termId] = (counts[termId] ?? 0) + 1;
    });

    let keptCount = 0;
    for (let termId = 0; termId < termCount; termId++) if ((counts[termId] ?? 0) > 0) keptCount++;
    const everyTermKept = keptCount === termCount;
    // Every term kept: the ids stay as they are, so the term table is shared rather than built
    // again (for a vault of millions of distinct words a second table would double the memory).
    const keptTerms = everyTermKept ? this.termIds : new TermTable();
    const offsets = new Uint32Array(keptCount + 1);
    /** Old term id -> where its next posting goes in the new arrays. */
    const cursors = new Uint32Array(termCount);
    let total = 0;
    let kept = 0;
    for (let termId = 0; termId < termCount; termId++) {
      const count = counts[termId] ?? 0;
      if (count === 0) continue;
      cursors[termId] = total;
      total += count;
      offsets[++kept] = total;
      if (!everyTermKept) keptTerms.idOf(this.termIds.text(termId));
      if ((termId & 1023) === 0) await slicer.checkpoint();
    }
    const docs = new Uint32Array(total);
    const frequencies = new Uint32Array(total);
    const place = (termId: number, docId: number, packed: number): void => {
      const newId = newIdOf[docId] ?? -1;
      if (newId < 0) return;
      const at = cursors[termId] ?? 0;
      docs[at] = newId;
      frequencies[at] = packed;
      cursors[termId] = at + 1;
    };
    for (let termId = 0; termId < termCount && termId + 1 < this.offsets.length; termId++) {
      const end = this.offsets[termId + 1] ?? 0;
      for (let index = this.offsets[termId] ?? 0; index < end; index++) place(termId, this.docs[index] ?? 0, this.frequencies[index] ?? 0);
      if ((termId & 1023) === 0) await slicer.checkpoint();
    }
    await this.forEachDeltaEntry(slicer, place);
    return PostingLists.over({ offsets, docs, frequencies }, keptTerms);
  }

  /** Every delta entry in the order it was written, with a checkpoint after each block. */
  private async forEachDeltaEntry(slicer: TimeSlicer, visit: (termId: number, docId: number, packed: number) => void): Promise<void> {
    for (let block = 0; block * (DELTA_BLOCK_MASK + 1) < this.deltaCount; block++) {
      const terms = this.deltaTerms[block] as Uint32Array;
      const docs = this.deltaDocs[block] as Uint32Array;
      const frequencies = this.deltaFrequencies[block] as Uint32Array;
      const end = Math.min(DELTA_BLOCK_MASK + 1, this.deltaCount - block * (DELTA_BLOCK_MASK + 1));
      for (let offset = 0; offset < end; offset++) visit(terms[offset] ?? 0, docs[offset] ?? 0, frequencies[offset] ?? 0);
      await slicer.checkpoint();
    }
  }

  /** The packed arrays (valid only with an empty delta, right after `compact()`). */
  packed(): { terms: string[]; offsets: Uint32Array; docs: Uint32Array; frequencies: Uint32Array } {
    const terms: string[] = [];
    for (let termId = 0; termId < this.termIds.size; termId++) terms.push(this.termIds.text(termId));
    return { terms, offsets: this.offsets, docs: this.docs, frequencies: this.frequencies };
  }

  /** Lists over packed arrays (from `packed()` or a decoded file), the term table built in slices. */
  static async restore(
    packed: { terms: readonly string[]; offsets: Uint32Array; docs: Uint32Array; frequencies: Uint32Array },
    slicer: TimeSlicer,
  ): Promise<PostingLists> {
    const termIds = new TermTable();
    for (let start = 0; start < packed.terms.length; start += 16_384) {
      const end = Math.min(packed.terms.length, start + 16_384);
      for (let id = start; id < end; id++) {
        // A term listed twice would shift every later id: the stored index is not one we wrote.
        if (termIds.idOf(packed.terms[id] ?? "") !== id) throw new Error(`the term ${JSON.stringify(packed.terms[id])} is listed twice`);
      }
      await slicer.checkpoint();
    }
    return PostingLists.over(packed, termIds);
  }

  /** Lists over packed arrays and a term table whose ids match them (taken, not copied). */
  private static over(packed: { offsets: Uint32Array; docs: Uint32Array; frequencies: Uint32Array }, termIds: TermTable): PostingLists {
    const lists = new PostingLists();
    lists.termIds = termIds;
    lists.offsets = packed.offsets;
    lists.docs = packed.docs;
    lists.frequencies = packed.frequencies;
    return lists;
  }

  private firstDelta(termId: number): number {
    return termId < this.deltaHead.length && (this.deltaLength[termId] ?? 0) > 0 ? (this.deltaHead[termId] ?? -1) : -1;
  }

  private growTerms(minimum: number): void {
    const size = Math.max(minimum, Math.ceil(this.deltaHead.length * 1.5), 1024);
    const head = new Int32Array(size);
    head.set(this.deltaHead);
    const tail = new Int32Array(size).fill(-1);
    tail.set(this.deltaTail);
    const length = new Uint32Array(size);
    length.set(this.deltaLength);
    this.deltaHead = head;
    this.deltaTail = tail;
    this.deltaLength = length;
  }

}

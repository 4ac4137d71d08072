import type { TimeSlicer } from "./TimeSlicer";

/**
 * Which notes hold each term, in two parts:
 * - a packed base (compressed sparse rows: for term t, entries `offsets[t]..offsets[t+1]` of
 *   `docs` and `frequencies`), built by `compact()` and by loading, never changed in place; and
 * - a small delta of notes added since, per term, appended to as notes change.
 * Note ids only grow between compactions, so a term's base entries, then its delta entries, are
 * in id order. The bulk sits in three typed arrays rather than millions of objects.
 */
export class PostingLists {
  /**
   * Whose term ids these are, for `Term.indexedBy`: a token of its own rather than the lists
   * themselves, so a term that outlives a compaction does not keep the old arrays alive.
   */
  readonly identity: object = {};
  private termIds = new Map<string, number>();
  private terms: string[] = [];
  private offsets: Uint32Array = new Uint32Array(1);
  private docs: Uint32Array = new Uint32Array(0);
  private frequencies: Uint32Array = new Uint32Array(0);
  private delta = new Map<number, number[]>();
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
    return this.termIds.get(term);
  }

  /** The term's id, given one if it is new. */
  idOf(term: string): number {
    let termId = this.termIds.get(term);
    if (termId === undefined) {
      termId = this.terms.push(term) - 1;
      this.termIds.set(term, termId);
    }
    return termId;
  }

  append(termId: number, docId: number, packedFrequencies: number): void {
    const list = this.delta.get(termId);
    if (list) list.push(docId, packedFrequencies);
    else this.delta.set(termId, [docId, packedFrequencies]);
    this.deltaCount++;
  }

  /** Every posting of a term, in note-id order. */
  forEach(termId: number, visit: (docId: number, packedFrequencies: number) => void): void {
    if (termId + 1 < this.offsets.length) {
      const end = this.offsets[termId + 1] ?? 0;
      for (let index = this.offsets[termId] ?? 0; index < end; index++) visit(this.docs[index] ?? 0, this.frequencies[index] ?? 0);
    }
    const list = this.delta.get(termId);
    if (list) for (let index = 0; index < list.length; index += 2) visit(list[index] ?? 0, list[index + 1] ?? 0);
  }

  /**
   * A term's postings as raw arrays, for the scoring loop (a callback per posting costs it half its
   * speed): base entries `start..end` of `docs`/`frequencies`, then `delta` as (id, frequencies) pairs.
   */
  raw(termId: number): { docs: Uint32Array; frequencies: Uint32Array; start: number; end: number; delta: readonly number[] } {
    const inBase = termId + 1 < this.offsets.length;
    return {
      docs: this.docs,
      frequencies: this.frequencies,
      start: inBase ? (this.offsets[termId] ?? 0) : 0,
      end: inBase ? (this.offsets[termId + 1] ?? 0) : 0,
      delta: this.delta.get(termId) ?? [],
    };
  }

  /** How many postings a term has, live or not. */
  count(termId: number): number {
    const base = termId + 1 < this.offsets.length ? (this.offsets[termId + 1] ?? 0) - (this.offsets[termId] ?? 0) : 0;
    return base + (this.delta.get(termId)?.length ?? 0) / 2;
  }

  /**
   * New lists with the delta folded into the base, notes renumbered by `newIdOf` (-1: dropped) and
   * terms left without postings dropped, built in slices. These lists are left as they are, so
   * readers meanwhile see them unchanged, and the caller swaps both at once.
   */
  async compacted(newIdOf: Int32Array, slicer: TimeSlicer): Promise<PostingLists> {
    const counts = new Uint32Array(this.terms.length);
    let total = 0;
    for (let termId = 0; termId < this.terms.length; termId++) {
      let count = 0;
      this.forEach(termId, (docId) => {
        if ((newIdOf[docId] ?? -1) >= 0) count++;
      });
      counts[termId] = count;
      total += count;
      if ((termId & 1023) === 0) await slicer.checkpoint();
    }

    const keptTerms: string[] = [];
    const offsets = new Uint32Array(this.terms.length + 1);
    const docs = new Uint32Array(total);
    const frequencies = new Uint32Array(total);
    let cursor = 0;
    for (let termId = 0; termId < this.terms.length; termId++) {
      if ((counts[termId] ?? 0) === 0) continue;
      this.forEach(termId, (docId, packed) => {
        const newId = newIdOf[docId] ?? -1;
        if (newId < 0) return;
        docs[cursor] = newId;
        frequencies[cursor++] = packed;
      });
      keptTerms.push(this.terms[termId] ?? "");
      offsets[keptTerms.length] = cursor;
      if ((termId & 1023) === 0) await slicer.checkpoint();
    }

    return PostingLists.restore({ terms: keptTerms, offsets: offsets.slice(0, keptTerms.length + 1), docs, frequencies }, slicer);
  }

  /** The packed arrays (valid only with an empty delta, right after `compact()`). */
  packed(): { terms: string[]; offsets: Uint32Array; docs: Uint32Array; frequencies: Uint32Array } {
    return { terms: this.terms.slice(), offsets: this.offsets, docs: this.docs, frequencies: this.frequencies };
  }

  /** Lists over packed arrays (from `packed()` or a decoded file), the term table built in slices. */
  static async restore(
    packed: { terms: readonly string[]; offsets: Uint32Array; docs: Uint32Array; frequencies: Uint32Array },
    slicer: TimeSlicer,
  ): Promise<PostingLists> {
    const lists = new PostingLists();
    lists.terms = packed.terms.slice();
    for (let start = 0; start < packed.terms.length; start += 16_384) {
      const end = Math.min(packed.terms.length, start + 16_384);
      for (let id = start; id < end; id++) lists.termIds.set(packed.terms[id] ?? "", id);
      await slicer.checkpoint();
    }
    lists.offsets = packed.offsets;
    lists.docs = packed.docs;
    lists.frequencies = packed.frequencies;
    return lists;
  }
}

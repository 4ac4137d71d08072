import { documentKind } from "../documents/documentKinds";
import { PAGE_BREAK } from "../documents/documentText";
import type { VaultPort } from "../vault/VaultPort";
import type { InvertedIndex } from "./InvertedIndex";
import { extractFieldTerms, type FieldTerms } from "./noteFields";
import type { RankedNote } from "./rankNotes";
import type { RankingParameters } from "./ranking";
import { readOrReason } from "./reconcile";
import type { TimeSlicer } from "./TimeSlicer";
import type { Tokenizer } from "./tokenizer";

/** How many more notes than asked for are ranked by words, so a PDF whose best page beats them can come up. */
export const PAGE_POOL_FACTOR = 3;
/** Pages whose terms are kept between queries (a few books' worth); the least recently used PDF goes first. */
const KEPT_PAGES = 4_000;

/**
 * A PDF is indexed whole, but it is found by its best page: a book of twenty subjects is no
 * answer to a question on one of them, its page is. Among the notes ranked by words (a pool
 * larger than asked for), each PDF is scored again as each of its pages would score as a note of
 * the index (`InvertedIndex.scoreUnindexed`: the same BM25F, idf and field averages), takes its
 * best page's score and that page, and the list is sorted again. Notes keep their scores, so a
 * vault without PDFs ranks as before. Measured in designdocs/SEARCH.md, "Documents".
 */
export class PdfPageRanking {
  private readonly kept = new Map<string, { key: string; pages: FieldTerms[] }>();
  private keptPages = 0;

  constructor(private readonly vault: VaultPort, private readonly tokenizer: Tokenizer) {}

  /** `pool` re-sorted with each PDF at its best page (`page` set), cut to `limit`. */
  async rerank(
    pool: readonly RankedNote[],
    terms: ReadonlyMap<string, number>,
    index: InvertedIndex,
    ranking: RankingParameters,
    limit: number,
    slicer: TimeSlicer,
  ): Promise<RankedNote[]> {
    if (!pool.some((note) => documentKind(note.path) === "pdf")) return pool.slice(0, limit);
    const rescored = await Promise.all(
      pool.map(async (note, position) => {
        if (documentKind(note.path) !== "pdf" || note.score === 0) return { note, position };
        const pages = await this.pagesOf(note, index, slicer);
        let best = { page: 1, score: -1 };
        pages.forEach((fields, offset) => {
          const score = index.scoreUnindexed(terms, fields, ranking);
          if (score > best.score) best = { page: offset + 1, score };
        });
        return { note: best.score < 0 ? note : { ...note, score: best.score, page: best.page }, position };
      }),
    );
    return rescored
      .sort((a, b) => b.note.score - a.note.score || a.position - b.position)
      .slice(0, limit)
      .map((entry) => entry.note);
  }

  /** Each page's terms as a note's, kept by path, size and modification time; the thread handed back between pages. */
  private async pagesOf(note: RankedNote, index: InvertedIndex, slicer: TimeSlicer): Promise<FieldTerms[]> {
    const document = index.get(note.path);
    const key = `${document?.size ?? 0}:${document?.mtime ?? 0}`;
    const kept = this.kept.get(note.path);
    if (kept?.key === key) {
      this.kept.delete(note.path);
      this.kept.set(note.path, kept);
      return kept.pages;
    }
    const read = await readOrReason(this.vault, note.path);
    const pages: FieldTerms[] = [];
    for (const text of read.problem === undefined ? read.text.split(`\n${PAGE_BREAK}\n`) : []) {
      pages.push(extractFieldTerms(note.path, text, this.tokenizer));
      await slicer.checkpoint();
    }
    if (kept) this.forget(note.path);
    this.kept.set(note.path, { key, pages });
    this.keptPages += pages.length;
    for (const [path] of this.kept) {
      if (this.keptPages <= KEPT_PAGES || path === note.path) break;
      this.forget(path);
    }
    return pages;
  }

  private forget(path: string): void {
    this.keptPages -= this.kept.get(path)?.pages.length ?? 0;
    this.kept.delete(path);
  }
}

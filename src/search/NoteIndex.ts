import { clearTimer, realScheduler, setTimer, type Scheduler } from "../ports/timers";
import type { DataStore, VaultEvent, VaultPort } from "../vault/VaultPort";
import { exclusionFilter, type ExclusionSettings } from "./exclusions";
import { loadIndex, saveIndex } from "./indexStore";
import { InvertedIndex } from "./InvertedIndex";
import type { NoteSearcher, NoteSearchOptions, SearchResultForLLM } from "../ports/NoteSearcher";
import { bestPassage } from "./passages";
import { blendRankings } from "./fuseRankings";
import type { IndexedDocument } from "./InvertedIndex";
import { rankNotes, requestFilter, toRankedNote, type RankedNote } from "./rankNotes";
import { NoteVectors } from "./noteVectors";
import { fuseSimilar, similarNotes, type SimilarNote } from "./similarNotes";
import { titleFirst } from "./titleFirst";
import type { VectorSide } from "./vectorSide";
import { DEFAULT_RANKING, inverseDocumentFrequency, type RankingParameters } from "./ranking";
import { indexText, pathRuleRefusal, readOrReason, reconcile, statOrReason, type IndexProgress, type ReconcileReport } from "./reconcile";
import { TimeSlicer } from "./TimeSlicer";
import { Tokenizer } from "./tokenizer";
import { anySignal, untilAborted } from "../ports/abort";
import { SerialQueue } from "../ports/serialQueue";
import { errorMessage } from "../errorMessage";
import { NoteIndexError } from "./noteIndexError";
import { documentKind } from "../documents/documentKinds";
import { PAGE_BREAK } from "../documents/documentText";
import { PAGE_POOL_FACTOR, PdfPageRanking } from "./pdfPages";

/**
 * A note written again this soon after its last change is still being written: a chat's answer
 * kept in its note as it streams (every 2 s), an editor's autosave while someone types.
 */
export const REWRITE_WINDOW_MS = 10_000;
/**
 * Such a note is indexed once it has been left alone this long, not at every write: indexing a
 * long chat's note takes tens of milliseconds of the thread that draws the streaming answer and
 * the keys typed meanwhile. A search applies pending changes first, so it still finds the newest text.
 */
export const REWRITTEN_NOTE_DELAY_MS = 3_000;
/** However often notes change, what is pending is indexed at least this often. */
export const LONGEST_UPDATE_DELAY_MS = 30_000;

export interface NoteIndexOptions {
  vault: VaultPort;
  /** The plugin's private storage; the index file lives there. */
  store: DataStore;
  /** Read whenever the index is brought up to date, so an exclusion change applies to the next search. */
  getSettings: () => ExclusionSettings;
  /** The zone time ranges are computed in (daily notes are days in it); the system's by default. */
  timeZone?: () => string;
  /** Called as a long job advances (the first build of a large vault), for a progress indicator. */
  onProgress?: (progress: IndexProgress) => void;
  /** Called with problems that did not stop the index (a note that could not be read, a failed save). */
  onProblem?: (message: string) => void;
  ranking?: RankingParameters;
  /** Quiet time after a vault change before it is indexed (a search applies it at once anyway). */
  updateDelayMs?: number;
  /** The timer of those updates and its clock (tests hand in a fake one). */
  scheduler?: Scheduler;
  /** Quiet time after the last change before the index file is written. */
  saveDelayMs?: number;
  /** Longest stretch of work before the thread is handed back (see TimeSlicer). */
  sliceBudgetMs?: number;
  /** How to hand the thread back; a zero-delay timer by default. */
  yieldNow?: () => Promise<void>;
  /** Longest passage per hit, in characters. */
  passageChars?: number;
  /** The embeddings, when they are on: queries and related notes then fuse words and meaning. */
  vectors?: () => VectorSide | null;
}

/** What a start or rebuild did, for the status line and the benchmark. */
export interface IndexStartReport extends ReconcileReport {
  /** True when the stored index was loaded (and then only changed notes were read). */
  loadedFromDisk: boolean;
  /** Why the stored index was not used, when it was not. */
  rebuildReason?: string;
  durationMs: number;
  /** The longest the work held the thread between two hand-backs. */
  longestSliceMs: number;
}

/**
 * The note index behind `localSearch` and the CLI's `search`: loaded from the plugin's folder and
 * reconciled with the vault at start, kept current from vault events (debounced; a search first
 * applies whatever is pending, so it always sees the vault as it is), and written back a while
 * after the last change. All changes run one at a time; long ones are sliced so the UI stays free.
 */
export class NoteIndex implements NoteSearcher {
  private index = new InvertedIndex();
  private wordVectors: { index: InvertedIndex; vectors: NoteVectors } | undefined;
  private readonly tokenizer = new Tokenizer();
  private readonly pdfPages: PdfPageRanking;
  private readonly ranking: RankingParameters;
  private readonly queue = new SerialQueue();
  private starting: Promise<IndexStartReport> | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly pending = new Map<string, "update" | "delete">();
  private updateTimer: number | undefined;
  /** When the oldest pending change came (unset while nothing is pending). */
  private pendingSince: number | undefined;
  /** When each recently changed note last changed, to tell a note still being written. */
  private readonly lastChanged = new Map<string, number>();
  private saveTimer: number | undefined;
  private dirty = false;
  /** Size of the index file as last written (characters; it is ASCII text, so bytes too). */
  private savedCharacters = 0;
  /** When the index last took in a change (epoch ms; 0 before any). */
  private lastUpdate = 0;
  private exclusionKey = "";
  private isExcluded: (path: string) => boolean = () => false;
  private readonly lifetime = new AbortController();
  private readonly healthListeners = new Set<() => void>();

  constructor(private readonly options: NoteIndexOptions) {
    this.ranking = options.ranking ?? DEFAULT_RANKING;
    this.pdfPages = new PdfPageRanking(options.vault, this.tokenizer);
  }

  get noteCount(): number {
    return this.index.documentCount;
  }

  /** What the settings' "Index health" shows. */
  health(): { notes: number; terms: number; savedBytes: number; lastUpdate: number } {
    return { notes: this.index.documentCount, terms: this.index.termCount, savedBytes: this.savedCharacters, lastUpdate: this.lastUpdate };
  }

  /** Calls `listener` whenever `health()` changes (a change taken in, the index loaded or saved); returns the way to stop. */
  onHealthChange(listener: () => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  private healthChanged(): void {
    for (const listener of [...this.healthListeners]) listener();
  }

  /** Whether the note at `path` is indexed (after `start`). */
  has(path: string): boolean {
    return this.index.get(path) !== undefined;
  }

  get termCount(): number {
    return this.index.termCount;
  }

  /**
   * Loads the stored index and reconciles it with the vault; then follows vault events. Later
   * calls return the same result; after a failure (or an abort) the next call tries again.
   */
  start(signal?: AbortSignal): Promise<IndexStartReport> {
    if (this.lifetime.signal.aborted) return Promise.reject(new NoteIndexError("The note index was closed.", { code: "closed" }));
    this.starting ??= this.exclusive(() => this.load(signal));
    this.starting.catch(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Forgets the index and reads every note again (the "rebuild the index" command), then saves. */
  async rebuild(signal?: AbortSignal): Promise<IndexStartReport> {
    await this.start(signal);
    return this.exclusive(async () => {
      const began = performance.now();
      const slicer = this.slicer(signal);
      this.index = new InvertedIndex();
      const report = await this.reconcileNow(slicer);
      this.dirty = true;
      await this.saveNow(slicer).catch((error: unknown) => {
        // A stop stays a stop; a write the platform refused is named as the index not saved, in the platform's words.
        if (signal?.aborted || this.lifetime.signal.aborted) throw error;
        throw new NoteIndexError(errorMessage(error), { code: "not-saved", detail: errorMessage(error) });
      });
      return { ...report, loadedFromDisk: false, rebuildReason: "a rebuild was asked for", durationMs: performance.now() - began, longestSliceMs: slicer.longestSliceMs };
    });
  }

  /** Applies pending vault changes now (and a changed exclusion setting). */
  async flush(signal?: AbortSignal): Promise<void> {
    this.time.clearTimeout(this.updateTimer);
    this.updateTimer = undefined;
    await this.exclusive(() => this.applyPending(this.slicer(signal)));
  }

  /** Notes ranked for a query, best first, with their passages (the `NoteSearcher` port). */
  async search(query: string, options: NoteSearchOptions): Promise<SearchResultForLLM[]> {
    const ranked = await this.rank(query, options);
    const terms = this.queryTerms(query, options.salientTerms);
    const documentCount = Math.max(1, this.index.documentCount);
    const idf = (term: string) => inverseDocumentFrequency(documentCount, this.index.documentFrequency(term));
    const results = await Promise.all(
      ranked.map(async (note): Promise<SearchResultForLLM | null> => {
        const read = await readOrReason(this.options.vault, note.path);
        if (read.problem !== undefined) return null;
        // A PDF ranked by its best page gives its passage from that page.
        const text = note.page === undefined ? read.text : (read.text.split(`\n${PAGE_BREAK}\n`)[note.page - 1] ?? "");
        const passage = bestPassage(text, { terms, idf, tokenizer: this.tokenizer, maxChars: this.options.passageChars ?? 1_500 });
        return {
          path: note.path,
          title: note.title,
          score: note.score,
          mtime: note.mtime,
          content: passage.content,
          ...(passage.heading ? { heading: passage.heading } : {}),
          ...(documentKind(note.path) === "pdf" ? { page: note.page ?? passage.page } : {}),
        };
      }),
    );
    return results.filter((result): result is SearchResultForLLM => result !== null);
  }

  /**
   * Notes ranked for a query, best first: paths and scores only (the CLI's batch mode). With
   * embeddings on, the word ranking and the meaning ranking are blended (blendRankings; the weight
   * is measured in SEARCH.md) and a note whose title is the query stays first; a time-range
   * query ("last week") is answered by words and dates alone.
   */
  async rank(query: string, options: NoteSearchOptions): Promise<RankedNote[]> {
    await untilAborted(this.start(), options.signal);
    await untilAborted(this.flush(), options.signal);
    const request = {
      terms: this.queryTerms(query, options.salientTerms),
      limit: options.limit,
      ranking: this.ranking,
      timeRange: options.timeRange,
      timeZone: this.options.timeZone?.() ?? "",
      ...(options.insideFolder !== undefined ? { insideFolder: options.insideFolder } : {}),
      ...(options.outsideFolder !== undefined ? { outsideFolder: options.outsideFolder } : {}),
      ...(options.acceptPath ? { acceptPath: options.acceptPath } : {}),
    };
    const vectors = options.timeRange || options.wordsOnly ? null : (this.options.vectors?.() ?? null);
    const slicer = this.slicer(options.signal);
    const byWords = (limit: number) =>
      this.pdfPages.rerank(rankNotes(this.index, { ...request, limit: limit * PAGE_POOL_FACTOR }), request.terms, this.index, this.ranking, limit, slicer);
    if (!vectors) return byWords(options.limit);
    const pool = options.limit * 2;
    const words = await byWords(pool);
    const filter = requestFilter(request);
    const meaning = await vectors.search(query, pool, (path) => this.acceptsPath(path, filter), options.signal);
    if (!meaning || meaning.length === 0) return words.slice(0, options.limit);
    const pageOf = new Map(words.map((note) => [note.path, note.page]));
    const fused = blendRankings(words, meaning, options.limit).flatMap(({ path, score }) => {
      const document = this.index.get(path);
      const page = pageOf.get(path);
      return document ? [{ ...toRankedNote(document, score), ...(page !== undefined ? { page } : {}) }] : [];
    });
    return titleFirst(fused, query, this.index, filter);
  }

  /**
   * The notes most related to the note at `path` (see similarNotes), best first; empty when it is
   * not a note the index holds (excluded, or not a note, PDF or canvas).
   */
  async similar(path: string, options: { limit: number; signal?: AbortSignal; outsideFolder?: string; acceptPath?: (path: string) => boolean }): Promise<SimilarNote[]> {
    await untilAborted(this.start(), options.signal);
    await untilAborted(this.flush(), options.signal);
    if (!this.index.get(path)) return [];
    const read = await readOrReason(this.options.vault, path);
    if (read.problem !== undefined) return [];
    const outside = options.outsideFolder === undefined ? undefined : `${options.outsideFolder}/`;
    const accepted = options.acceptPath;
    const accept =
      outside || accepted ? (document: IndexedDocument) => (!outside || !document.path.startsWith(outside)) && (!accepted || accepted(document.path)) : undefined;
    const byWords = await similarNotes({ index: this.index, vectors: this.vectorsOfIndex(), tokenizer: this.tokenizer, vault: this.options.vault, ranking: this.ranking }, path, read.text, {
      limit: options.limit,
      ...(accept ? { accept } : {}),
    });
    const vectors = this.options.vectors?.() ?? null;
    const byMeaning = vectors?.similarToNote(path, options.limit, (candidate) => candidate !== path && this.acceptsPath(candidate, accept)) ?? null;
    return byMeaning && byMeaning.length > 0 ? fuseSimilar(byWords, byMeaning, options.limit) : byWords;
  }

  /** The word vectors over the current index (a load or rebuild replaces the index, and with it these). */
  private vectorsOfIndex(): NoteVectors {
    if (this.wordVectors?.index !== this.index) this.wordVectors = { index: this.index, vectors: new NoteVectors(this.index) };
    return this.wordVectors.vectors;
  }

  /** Whether a path is an indexed note the filter lets through. */
  private acceptsPath(path: string, filter: ((document: IndexedDocument) => boolean) | undefined): boolean {
    const document = this.index.get(path);
    return document !== undefined && (!filter || filter(document));
  }

  /** Writes the index file now if anything changed since it was last written. */
  async save(signal?: AbortSignal): Promise<void> {
    clearTimer(this.saveTimer);
    this.saveTimer = undefined;
    await this.exclusive(() => this.saveNow(this.slicer(signal)));
  }

  /** Stops following the vault and writes what is unsaved. Nothing runs after it. */
  async dispose(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.time.clearTimeout(this.updateTimer);
    clearTimer(this.saveTimer);
    this.lifetime.abort(new Error("The note index was closed."));
    await this.queue.idle();
    if (this.dirty) await this.saveNow(new TimeSlicer({ budgetMs: this.options.sliceBudgetMs, yieldNow: this.options.yieldNow }));
  }

  private async load(signal: AbortSignal | undefined): Promise<IndexStartReport> {
    const began = performance.now();
    const slicer = this.slicer(signal);
    this.unsubscribe ??= this.options.vault.onChange((event) => this.onVaultEvent(event));
    this.options.onProgress?.({ phase: "loading", done: 0, total: 1 });
    const outcome = await loadIndex(this.options.store, slicer, signal);
    this.index = outcome.index;
    if (outcome.loaded) this.savedCharacters = outcome.characters;
    this.options.onProgress?.({ phase: "loading", done: 1, total: 1 });
    const report = await this.reconcileNow(slicer);
    if (!outcome.loaded || report.indexed > 0 || report.removed > 0) this.markChanged();
    else this.healthChanged();
    return {
      ...report,
      loadedFromDisk: outcome.loaded,
      ...(outcome.loaded ? {} : { rebuildReason: outcome.reason }),
      durationMs: performance.now() - began,
      longestSliceMs: slicer.longestSliceMs,
    };
  }

  private async reconcileNow(slicer: TimeSlicer): Promise<ReconcileReport> {
    this.refreshExclusions();
    const report = await reconcile({
      vault: this.options.vault,
      index: this.index,
      tokenizer: this.tokenizer,
      slicer,
      isExcluded: this.isExcluded,
      onProgress: this.options.onProgress,
    });
    for (const problem of report.problems) this.options.onProblem?.(problem);
    return report;
  }

  /** Re-reads the exclusion settings; true when they changed since last time. */
  private refreshExclusions(): boolean {
    const settings = this.options.getSettings();
    const key = JSON.stringify([settings.excludedFolders, settings.excludedPatterns]);
    if (key === this.exclusionKey) return false;
    this.exclusionKey = key;
    this.isExcluded = exclusionFilter(settings);
    return true;
  }

  private onVaultEvent(event: VaultEvent): void {
    if (event.type === "rename") this.pending.set(event.oldPath, "delete");
    this.pending.set(event.path, event.type === "delete" ? "delete" : "update");
    const now = this.time.now();
    const previous = this.lastChanged.get(event.path);
    this.lastChanged.set(event.path, now);
    this.pendingSince ??= now;
    const quiet = this.options.updateDelayMs ?? 500;
    const wait = previous !== undefined && now - previous < REWRITE_WINDOW_MS ? Math.max(quiet, REWRITTEN_NOTE_DELAY_MS) : quiet;
    this.time.clearTimeout(this.updateTimer);
    this.updateTimer = this.time.setTimeout(
      () => {
        this.updateTimer = undefined;
        this.flush().catch((error: unknown) => this.report(error));
      },
      Math.min(wait, Math.max(0, this.pendingSince + LONGEST_UPDATE_DELAY_MS - now)),
    );
  }

  private get time(): Scheduler {
    return this.options.scheduler ?? realScheduler;
  }

  private async applyPending(slicer: TimeSlicer): Promise<void> {
    if (this.refreshExclusions()) {
      const report = await this.reconcileNow(slicer);
      if (report.indexed > 0 || report.removed > 0) this.markChanged();
    }
    if (this.pending.size === 0) return;
    const changes = [...this.pending];
    this.pending.clear();
    this.pendingSince = undefined;
    const now = this.time.now();
    for (const [path, at] of this.lastChanged) if (now - at >= REWRITE_WINDOW_MS) this.lastChanged.delete(path);
    let changed = false;
    for (const [path, action] of changes) {
      if (action === "delete" || documentKind(path) === null || this.isExcluded(path)) {
        changed = this.index.remove(path) || changed;
        continue;
      }
      const refusal = pathRuleRefusal(path, this.options.vault.configDir);
      if (refusal !== null) {
        this.options.onProblem?.(refusal);
        continue;
      }
      const [{ stat, problem }, read] = await slicer.wait(Promise.all([statOrReason(this.options.vault, path), readOrReason(this.options.vault, path)]));
      if (!stat || read.problem !== undefined) {
        changed = this.index.remove(path) || changed;
        const reason = problem ?? read.problem;
        if (reason) this.options.onProblem?.(reason);
        continue;
      }
      await indexText({ index: this.index, tokenizer: this.tokenizer, slicer }, { path, mtime: stat.mtime, size: stat.size }, read.text);
      changed = true;
      await slicer.checkpoint();
    }
    // Many edits since the last compaction slow queries a little and hold memory: fold them in.
    if (this.index.pendingWork > COMPACT_AFTER) await this.index.compact(slicer);
    if (changed) this.markChanged();
  }

  private markChanged(): void {
    this.dirty = true;
    this.lastUpdate = Date.now();
    this.healthChanged();
    if (this.lifetime.signal.aborted) return;
    clearTimer(this.saveTimer);
    this.saveTimer = setTimer(() => {
      this.saveTimer = undefined;
      this.save().catch((error: unknown) => this.report(error));
    }, this.options.saveDelayMs ?? 30_000);
  }

  private async saveNow(slicer: TimeSlicer): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    this.options.onProgress?.({ phase: "saving", done: 0, total: 1 });
    try {
      this.savedCharacters = (await saveIndex(this.options.store, this.index, slicer)).characters;
    } catch (error) {
      this.dirty = true;
      throw error;
    }
    this.options.onProgress?.({ phase: "saving", done: 1, total: 1 });
    this.healthChanged();
  }

  private queryTerms(query: string, salientTerms: readonly string[] = []): Map<string, number> {
    const weights = new Map<string, number>();
    for (const term of this.tokenizer.tokenize(query)) weights.set(term, (weights.get(term) ?? 0) + 1);
    // A salient term counts once more, whether or not the query has it: the model marked it as key.
    for (const salient of salientTerms) {
      for (const term of new Set(this.tokenizer.tokenize(salient))) weights.set(term, (weights.get(term) ?? 0) + 1);
    }
    return weights;
  }

  /** Runs `work` after everything queued before it; a failure does not block what comes after. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.queue.run(work);
  }

  private slicer(signal?: AbortSignal): TimeSlicer {
    return new TimeSlicer({
      budgetMs: this.options.sliceBudgetMs,
      signal: signal ? anySignal([signal, this.lifetime.signal]) : this.lifetime.signal,
      yieldNow: this.options.yieldNow,
    });
  }

  private report(error: unknown): void {
    if (this.lifetime.signal.aborted) return;
    this.options.onProblem?.(`Search index: ${errorMessage(error)}`);
  }
}

/** Pending work (delta postings plus removed notes) past which the index is compacted after updates. */
const COMPACT_AFTER = 200_000;

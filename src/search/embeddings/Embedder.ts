import { errorMessage } from "../../errorMessage";
import type { DataStore, VaultEvent, VaultPort } from "../../vault/VaultPort";
import { realScheduler, type Scheduler } from "../../ports/timers";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../../net/retryPolicy";
import { ModelError } from "../../net/modelErrors";
import { TimeSlicer } from "../TimeSlicer";
import { UnusableVectorsError, type EmbeddingClient } from "./embeddingClient";
import { asEmbeddingError, embedWithRetry, mayHealLater, stopsTheRun } from "./embedWithRetry";
import { inclusionFilter, type InclusionSettings } from "./includedNotes";
import { noteSections, type NoteSection } from "./noteSections";
import { documentKind } from "../../documents/documentKinds";
import { DocumentReadError } from "../../documents/documentText";
import { VectorStore } from "./vectorStore";

export interface EmbedderSettings extends InclusionSettings {
  /** Off by default: nothing is read or sent while false. */
  enabled: boolean;
  model: string;
  /** Sections per request (default 16). */
  batchSize?: number;
}

export interface EmbedderStatus {
  /** Notes that may be embedded (included, not excluded), as of the last scan. */
  notes: number;
  embeddedNotes: number;
  sections: number;
  /** Notes new or changed since their vectors were made, not embedded yet. */
  waiting: number;
  /** Notes whose batch kept failing in this session; retried on the next run. */
  failed: number;
  /** Size of the stored vectors file, in characters. */
  bytes: number;
  /** When vectors were last stored (epoch ms), null before that. */
  lastUpdate: number | null;
  model: string;
  running: boolean;
}

export interface EmbedderProblem {
  error: ModelError;
  /** The run stopped (the rest waits for the next one) rather than skipping one batch. */
  stopped: boolean;
  /** A run starts again by itself after `resumeDelayMs`. */
  willResume: boolean;
}

export interface EmbedderOptions {
  vault: VaultPort;
  store: DataStore;
  /** Makes the client for the current settings (base URL, key, model); asked at each run. */
  createClient: (settings: EmbedderSettings) => EmbeddingClient;
  getSettings: () => EmbedderSettings;
  /** How to hand the thread back between batches; a zero-delay timer unless told otherwise. */
  yieldNow?: () => Promise<void>;
  retryPolicy?: RetryPolicy;
  onProgress?: (status: EmbedderStatus) => void;
  onProblem?: (problem: EmbedderProblem) => void;
  /** The stored file's name in the DataStore. */
  fileName?: string;
  /** Vectors are written at most this often while a run goes on (and always at its end); default 5 s. */
  saveIntervalMs?: number;
  /** Quiet time after a vault change before its note is embedded (typing saves often); default 2 s. */
  changeDelayMs?: number;
  /** After a run stopped on a failure that may heal, the next starts this much later; default 60 s. */
  resumeDelayMs?: number;
  /** The timers and clock of the waits above (tests hand in a fake one); the host's by default. */
  scheduler?: Scheduler;
}

export const EMBEDDINGS_FILE = "embeddings.json";
const DEFAULT_BATCH_SIZE = 16;
/** Batches failing one after another (each for its own reason) before a run gives up. */
const MAX_FAILED_BATCHES_IN_A_ROW = 3;

interface PendingNote {
  path: string;
  sections: NoteSection[];
  /** Vectors already known: reused from the store (unchanged hash) or embedded in this run. */
  vectors: Array<Float32Array | undefined>;
  missing: number;
  /** A vector of it was refused: the note fails in this run, whatever else arrives for it. */
  refused?: boolean;
}

interface BatchItem {
  note: PendingNote;
  index: number;
}

/**
 * Embeds the vault's notes by section in the background: in small batches with the thread
 * handed back between them, only sections whose text changed, saved as it goes so a failed or
 * killed run loses nothing stored, retrying what may heal. Follows vault changes incrementally.
 * Included and excluded notes follow the settings; an excluded note is never read.
 */
export class Embedder {
  private current = new VectorStore();
  private readonly statusListeners = new Set<(status: EmbedderStatus) => void>();
  private loaded = false;
  private storedChars = 0;
  private lastUpdate: number | null = null;
  /** The notes that may be embedded, from the last full scan and the changes since. */
  private readonly included = new Set<string>();
  private readonly waiting = new Set<string>();
  private readonly failed = new Set<string>();
  /** Paths changed since the last run; `fullScan` asks for the whole vault instead. */
  private readonly changed = new Set<string>();
  private fullScan = false;
  /** Notes deleted or renamed away during the current run: their vectors, if the run finishes them, are not kept. */
  private readonly forgotten = new Set<string>();
  private run: Promise<void> | undefined;
  private runAgain = false;
  private unsubscribe: (() => void) | undefined;
  private changeTimer: number | undefined;
  private resumeTimer: number | undefined;
  private dirty = false;
  private lastSave = 0;
  private readonly controller = new AbortController();
  private readonly scheduler: Scheduler;

  constructor(private readonly options: EmbedderOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
  }

  /** The stored vectors (empty until the first run has loaded them). */
  get vectors(): VectorStore {
    return this.current;
  }

  /** Starts following the vault and runs over all of it; resolves when that run is over. */
  start(): Promise<void> {
    if (this.controller.signal.aborted) return Promise.resolve();
    this.unsubscribe ??= this.options.vault.onChange((event) => this.onVaultEvent(event));
    this.fullScan = true;
    return this.schedule();
  }

  /**
   * Follows its settings: runs now when embedding is on, and again whenever the settings change
   * while it is on (switched on, another server, model or folders). `onSettingsChange` registers a
   * listener for any change of the plugin's settings; the returned function stops following.
   */
  follow(onSettingsChange: (listener: () => void) => () => void): () => void {
    let seen = JSON.stringify(this.options.getSettings());
    if (this.options.getSettings().enabled) void this.start();
    return onSettingsChange(() => {
      const next = JSON.stringify(this.options.getSettings());
      if (next === seen) return;
      seen = next;
      if (this.options.getSettings().enabled) void this.start();
    });
  }

  /** Forgets every vector and embeds the vault again. */
  rebuild(): Promise<void> {
    this.current = new VectorStore(this.options.getSettings().model);
    this.failed.clear();
    this.dirty = true;
    this.fullScan = true;
    return this.schedule();
  }

  /** Resolves once no run is going on or due. */
  async idle(): Promise<void> {
    while (this.run) await this.run;
  }

  /** Stops following the vault, ends the run at its next step and writes what is not stored yet. */
  async dispose(): Promise<void> {
    this.controller.abort();
    this.unsubscribe?.();
    this.scheduler.clearTimeout(this.changeTimer);
    this.scheduler.clearTimeout(this.resumeTimer);
    await this.run?.catch(() => undefined);
    if (this.dirty) await this.save().catch(() => undefined);
  }

  status(): EmbedderStatus {
    return {
      notes: this.included.size,
      embeddedNotes: this.current.noteCount,
      sections: this.current.sectionCount,
      waiting: this.waiting.size,
      failed: this.failed.size,
      bytes: this.storedChars,
      lastUpdate: this.lastUpdate,
      model: this.current.model,
      running: this.run !== undefined,
    };
  }

  private onVaultEvent(event: VaultEvent): void {
    if (!this.options.getSettings().enabled) return;
    if (event.type === "rename") {
      this.forget(event.oldPath);
      this.changed.delete(event.oldPath);
    }
    if (event.type === "delete") {
      this.forget(event.path);
      this.changed.delete(event.path);
    } else if (documentKind(event.path) !== null) {
      this.changed.add(event.path);
    }
    this.scheduler.clearTimeout(this.changeTimer);
    this.changeTimer = this.scheduler.setTimeout(() => void this.schedule(), this.options.changeDelayMs ?? 2000);
  }

  private forget(path: string): void {
    if (this.current.has(path)) this.dirty = true;
    this.current.remove(path);
    this.forgotten.add(path);
    this.included.delete(path);
    this.waiting.delete(path);
    this.failed.delete(path);
  }

  private schedule(): Promise<void> {
    if (this.run) {
      this.runAgain = true;
      return this.idle();
    }
    this.run = this.pass()
      .catch((error: unknown) => {
        if (this.controller.signal.aborted) return;
        const message = errorMessage(error);
        this.report(error instanceof ModelError ? error : new ModelError("unknown", `Embedding the notes stopped: ${message}`, { cause: error }), true, false);
      })
      .finally(() => {
        this.run = undefined;
        // The end of a run is progress too: a status line shown while it ran goes away.
        this.progress();
        if (this.runAgain && !this.controller.signal.aborted) {
          this.runAgain = false;
          void this.schedule();
        }
      });
    return this.idle();
  }

  private async pass(): Promise<void> {
    const signal = this.controller.signal;
    const settings = this.options.getSettings();
    if (!settings.enabled || signal.aborted) return;
    const slicer = new TimeSlicer({ signal, yieldNow: this.options.yieldNow });
    await this.load(settings.model, slicer);
    this.forgotten.clear();
    const included = inclusionFilter(settings);

    let candidates: string[];
    if (this.fullScan) {
      this.fullScan = false;
      this.changed.clear();
      const notes = (await this.options.vault.listNotes()).filter(included);
      const present = new Set(notes);
      for (const path of [...this.current.paths(), ...this.waiting, ...this.failed]) if (!present.has(path)) this.forget(path);
      this.included.clear();
      for (const path of notes) this.included.add(path);
      candidates = notes;
    } else {
      candidates = [...this.changed].filter(included);
      this.changed.clear();
    }

    // Which notes need work: read each once, compare section hashes with the stored ones.
    const due: string[] = [];
    for (const path of candidates) {
      await slicer.checkpoint();
      const sections = await this.sectionsOf(path, slicer);
      if (sections === null) {
        this.forget(path);
        continue;
      }
      this.included.add(path);
      if (!this.upToDate(path, sections)) {
        due.push(path);
        // A note that failed before counts as failed until it succeeds or fails again.
        if (!this.failed.has(path)) this.waiting.add(path);
      }
    }
    this.progress();
    if (due.length > 0) await this.embedNotes(due, settings, slicer);
    if (this.dirty) await this.save();
    this.progress();
  }

  private async embedNotes(paths: string[], settings: EmbedderSettings, slicer: TimeSlicer): Promise<void> {
    const signal = this.controller.signal;
    const client = this.options.createClient(settings);
    const batchSize = Math.max(1, settings.batchSize ?? DEFAULT_BATCH_SIZE);
    const policy = this.options.retryPolicy ?? DEFAULT_RETRY_POLICY;
    let batch: BatchItem[] = [];
    let failedInARow = 0;

    const send = async (): Promise<boolean> => {
      const items = batch;
      batch = [];
      try {
        let vectors: ReadonlyArray<Float32Array | undefined>;
        try {
          vectors = await slicer.wait(embedWithRetry(client, items.map((item) => item.note.sections[item.index]?.text ?? ""), policy, signal));
        } catch (error) {
          if (!(error instanceof UnusableVectorsError)) throw error;
          // Only the notes of the refused vectors fail; the rest of the batch is kept.
          vectors = error.vectors;
          for (const [position, problem] of error.problems) {
            const note = items[position]?.note;
            if (note && !note.refused) this.refuse(note, problem);
          }
        }
        failedInARow = 0;
        items.forEach((item, position) => {
          if (item.note.refused) return;
          item.note.vectors[item.index] = vectors[position];
          item.note.missing--;
          if (item.note.missing === 0) this.complete(item.note);
        });
        await this.saveIfDue();
        this.progress();
        await slicer.pause();
        return true;
      } catch (error) {
        const modelError = asEmbeddingError(error, client, signal);
        if (modelError.kind === "aborted") throw modelError;
        for (const item of items) this.fail(item.note.path);
        const stop = stopsTheRun(modelError) || ++failedInARow >= MAX_FAILED_BATCHES_IN_A_ROW;
        this.report(modelError, stop, stop && mayHealLater(modelError));
        return !stop;
      }
    };

    for (const path of paths) {
      await slicer.checkpoint();
      if (!this.options.getSettings().enabled) break;
      const sections = await this.sectionsOf(path, slicer);
      if (sections === null) {
        this.forget(path);
        continue;
      }
      const note = this.pendingNote(path, sections);
      if (note.missing === 0) {
        this.complete(note);
        continue;
      }
      for (let index = 0; index < sections.length; index++) {
        if (note.vectors[index]) continue;
        batch.push({ note, index });
        if (batch.length >= batchSize && !(await send())) return;
      }
    }
    if (batch.length > 0) await send();
  }

  /**
   * A note's sections, or null when it is gone (deleted meanwhile) or is a PDF or canvas that
   * gives no text (the index names those; one of them must not stop the embedding of the rest).
   */
  private async sectionsOf(path: string, slicer: TimeSlicer): Promise<NoteSection[] | null> {
    try {
      return noteSections(path, await slicer.wait(this.options.vault.read(path)));
    } catch (error) {
      if ((error as Error).name === "VaultFileNotFoundError" || error instanceof DocumentReadError) return null;
      throw error;
    }
  }

  private upToDate(path: string, sections: NoteSection[]): boolean {
    const stored = this.current.hashesOf(path);
    return stored.size === sections.length && sections.every((section) => stored.get(section.key) === section.hash);
  }

  /** The note's sections with the vectors of unchanged ones (same text, wherever it moved) taken over. */
  private pendingNote(path: string, sections: NoteSection[]): PendingNote {
    const byHash = new Map<string, string>();
    for (const [key, hash] of this.current.hashesOf(path)) byHash.set(hash, key);
    const vectors = sections.map((section) => {
      const key = byHash.get(section.hash);
      return key === undefined ? undefined : this.current.vectorOf(path, key);
    });
    return { path, sections, vectors, missing: vectors.filter((vector) => !vector).length };
  }

  private complete(note: PendingNote): void {
    if (this.forgotten.has(note.path)) return;
    this.current.set(
      note.path,
      note.sections.map((section, index) => ({ key: section.key, hash: section.hash, vector: note.vectors[index] ?? new Float32Array(this.current.dimensions) })),
    );
    this.waiting.delete(note.path);
    this.failed.delete(note.path);
    this.dirty = true;
  }

  /** A vector of the note cannot be used: the note fails (kept as it was stored) and is tried again on the next run. */
  private refuse(note: PendingNote, problem: string): void {
    note.refused = true;
    this.fail(note.path);
    const message = `The embeddings server sent a vector for "${note.path}" that cannot be used (${problem}); the note counts as failed and is tried again on the next run.`;
    this.options.onProblem?.({ error: new ModelError("bad-response", message), stopped: false, willResume: false });
  }

  private fail(path: string): void {
    this.waiting.delete(path);
    this.failed.add(path);
  }

  private report(error: ModelError, stopped: boolean, willResume: boolean): void {
    if (error.kind === "aborted") return;
    if (willResume && !this.controller.signal.aborted) {
      this.scheduler.clearTimeout(this.resumeTimer);
      this.resumeTimer = this.scheduler.setTimeout(() => {
        this.fullScan = true;
        void this.schedule();
      }, this.options.resumeDelayMs ?? 60_000);
    }
    this.options.onProblem?.({ error, stopped, willResume });
  }

  private progress(): void {
    const status = this.status();
    this.options.onProgress?.(status);
    for (const listener of [...this.statusListeners]) listener(status);
  }

  /** Calls `listener` whenever `status()` changes; returns the way to stop. */
  onStatusChange(listener: (status: EmbedderStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Reads the stored vectors once; a store of another model is dropped (everything re-embeds). */
  private async load(model: string, slicer: TimeSlicer): Promise<void> {
    if (!this.loaded) {
      const text = await slicer.wait(this.options.store.read(this.options.fileName ?? EMBEDDINGS_FILE));
      this.storedChars = text?.length ?? 0;
      this.current = await VectorStore.deserializeSliced(text ?? "", () => slicer.checkpoint());
      this.loaded = true;
    }
    if (this.current.model !== model) {
      if (this.current.noteCount > 0 || this.storedChars > 0) this.dirty = true;
      // Every note needs the new model's vectors, not only the ones that changed.
      this.fullScan = true;
      this.current = new VectorStore(model);
      this.waiting.clear();
      this.failed.clear();
    }
  }

  private async saveIfDue(): Promise<void> {
    const now = this.scheduler.now();
    if (now - this.lastSave >= (this.options.saveIntervalMs ?? 5000)) await this.save();
  }

  /** Writes the vectors; the text is made in slices, so a large store does not hold the thread. */
  private async save(): Promise<void> {
    this.dirty = false;
    const slicer = new TimeSlicer({ yieldNow: this.options.yieldNow });
    const text = await this.current.serializeSliced(() => slicer.checkpoint());
    try {
      await this.options.store.write(this.options.fileName ?? EMBEDDINGS_FILE, text);
    } catch (error) {
      this.dirty = true;
      throw error;
    }
    this.storedChars = text.length;
    this.lastSave = this.scheduler.now();
    this.lastUpdate = this.lastSave;
  }
}

import { errorMessage } from "../errorMessage";
import { untilAborted } from "../ports/abort";
import { clearTimer, setTimer } from "../ports/timers";
import { SerialQueue } from "../ports/serialQueue";
import type { DataStore, FileStat, VaultPort } from "../vault/VaultPort";
import { VaultFileNotFoundError } from "../vault/VaultPort";
import { canvasOutline } from "./canvasOutline";
import { documentKind } from "./documentKinds";
import { DEFAULT_DOCUMENT_LIMITS, DocumentReadError, type DocumentLimits, type DocumentText } from "./documentText";
import type { PdfExtraction, PdfTextPort } from "./PdfTextPort";

/** The file next to the index that keeps each PDF's extracted text. */
export const DOCUMENT_CACHE_FILE = "document-text.json";
const CACHE_VERSION = 1;

interface CachedPdf {
  size: number;
  mtime: number;
  /** The caps the text was read under: other caps read it again. */
  limits: string;
  extraction: PdfExtraction;
}

/** What a reader of documents needs of `DocumentReader` (readNote, attachments). */
export type DocumentSource = Pick<DocumentReader, "read">;

export interface DocumentReaderOptions {
  vault: VaultPort;
  /** Where the PDFs' text is kept between runs (the plugin's folder); none keeps it in memory only. */
  store?: DataStore;
  /** The PDF text layer; null where there is none (PDFs are then "could not be read", with the reason). */
  pdf: PdfTextPort | null;
  limits?: DocumentLimits;
  /** Hands the thread back between a PDF's pages. */
  yieldNow?: () => Promise<void>;
  /** Quiet time after the last extraction before the cache file is written. */
  saveDelayMs?: number;
  /** Problems that stopped nothing (the cache file could not be read or written). */
  onProblem?: (message: string) => void;
}

/**
 * Reads PDFs and canvases as text for every reader (the index, readNote, attachments). A PDF is
 * extracted once: its text is kept by path, size and modification time in `document-text.json`
 * beside the index, and read again only when the file changes. PDFs are extracted one at a time
 * (two readers asking for the same PDF share one extraction), page by page with the thread handed
 * back between pages. A PDF or canvas that gives no text throws `DocumentReadError`, which names
 * why ("no text layer", "encrypted", "could not be read").
 */
export class DocumentReader {
  private cache: Map<string, CachedPdf> | undefined;
  private loading: Promise<Map<string, CachedPdf>> | undefined;
  private readonly extracting = new Map<string, Promise<PdfExtraction>>();
  private readonly queue = new SerialQueue();
  private readonly limits: DocumentLimits;
  private dirty = false;
  private saveTimer: number | undefined;
  private readonly lifetime = new AbortController();

  constructor(private readonly options: DocumentReaderOptions) {
    this.limits = options.limits ?? DEFAULT_DOCUMENT_LIMITS;
  }

  /** The caps a PDF is read under. */
  get documentLimits(): DocumentLimits {
    return this.limits;
  }

  /** The document's text; throws `DocumentReadError` for one that gives none, `VaultFileNotFoundError` when it is gone. */
  async read(path: string, signal?: AbortSignal): Promise<DocumentText> {
    const kind = documentKind(path);
    if (kind === "canvas") return this.readCanvas(path);
    if (kind !== "pdf") throw new RangeError(`"${path}" is not a PDF or a canvas.`);
    const stat = await this.options.vault.stat(path);
    if (!stat) throw new VaultFileNotFoundError(path);
    const extraction = await this.extraction(path, stat, signal);
    if (!extraction.ok) throw new DocumentReadError(path, extraction.problem, extraction.detail);
    return {
      kind: "pdf",
      path,
      pages: extraction.pages,
      pageCount: extraction.pageCount,
      ...(extraction.capped ? { capped: { ...extraction.capped, maxPages: this.limits.maxPdfPages, maxCharacters: this.limits.maxPdfCharacters } } : {}),
    };
  }

  /** Forgets the kept text of PDFs that are no longer at these paths (called with each full listing). */
  async keepOnly(pdfPaths: readonly string[]): Promise<void> {
    const cache = await this.loadCache();
    const present = new Set(pdfPaths);
    for (const path of [...cache.keys()]) {
      if (!present.has(path)) {
        cache.delete(path);
        this.changed();
      }
    }
  }

  /** Writes the kept text now if it changed. */
  async flush(): Promise<void> {
    clearTimer(this.saveTimer);
    this.saveTimer = undefined;
    await this.queue.run(() => this.saveNow());
  }

  /** Stops extracting (a PDF being read fails with the abort) and writes what is kept. */
  async dispose(): Promise<void> {
    this.lifetime.abort(new Error("The document reader was closed."));
    await this.flush();
  }

  private async readCanvas(path: string): Promise<DocumentText> {
    const json = await this.options.vault.read(path);
    try {
      return { kind: "canvas", path, text: canvasOutline(json) };
    } catch (error) {
      throw new DocumentReadError(path, "could not be read", errorMessage(error));
    }
  }

  private async extraction(path: string, stat: FileStat, signal: AbortSignal | undefined): Promise<PdfExtraction> {
    const cache = await this.loadCache();
    const limits = `${this.limits.maxPdfPages}/${this.limits.maxPdfCharacters}`;
    const cached = cache.get(path);
    if (cached && cached.size === stat.size && cached.mtime === stat.mtime && cached.limits === limits) return cached.extraction;
    const key = `${path}\u0000${stat.size}\u0000${stat.mtime}`;
    let running = this.extracting.get(key);
    if (!running) {
      running = this.queue.run(async () => {
        const extraction = await this.extract(path);
        cache.set(path, { size: stat.size, mtime: stat.mtime, limits, extraction });
        this.changed();
        return extraction;
      });
      this.extracting.set(key, running);
      void running.finally(() => this.extracting.delete(key)).catch(() => undefined);
    }
    // The extraction goes on for the other readers (and the cache) when this one stops waiting.
    return untilAborted(running, signal);
  }

  private async extract(path: string): Promise<PdfExtraction> {
    const pdf = this.options.pdf;
    if (!pdf) return { ok: false, problem: "could not be read", detail: "no PDF reader is available here" };
    // A copy of its own: the CLI's port hands the buffer to its worker, and a vault's bytes may be a view into a larger (pooled) one.
    const bytes = new Uint8Array(await this.options.vault.readBinary(path));
    return pdf.extract(bytes, {
      maxPages: this.limits.maxPdfPages,
      maxCharacters: this.limits.maxPdfCharacters,
      signal: this.lifetime.signal,
      ...(this.options.yieldNow ? { yieldNow: this.options.yieldNow } : {}),
    });
  }

  private loadCache(): Promise<Map<string, CachedPdf>> {
    if (this.cache) return Promise.resolve(this.cache);
    this.loading ??= this.readCacheFile().then((cache) => (this.cache = cache));
    return this.loading;
  }

  private async readCacheFile(): Promise<Map<string, CachedPdf>> {
    const cache = new Map<string, CachedPdf>();
    const store = this.options.store;
    if (!store) return cache;
    let text: string | null;
    try {
      text = await store.read(DOCUMENT_CACHE_FILE);
    } catch (error) {
      this.options.onProblem?.(`The PDFs' kept text could not be read (${errorMessage(error)}); PDFs will be read again.`);
      return cache;
    }
    if (text === null) return cache;
    try {
      const stored = JSON.parse(text) as { version?: unknown; documents?: Record<string, CachedPdf> };
      if (stored.version !== CACHE_VERSION || typeof stored.documents !== "object" || stored.documents === null) return cache;
      for (const [path, entry] of Object.entries(stored.documents)) if (isCachedPdf(entry)) cache.set(path, entry);
    } catch {
      // A damaged file costs one more extraction of each PDF, nothing else.
    }
    return cache;
  }

  private changed(): void {
    this.dirty = true;
    if (this.lifetime.signal.aborted || !this.options.store) return;
    clearTimer(this.saveTimer);
    this.saveTimer = setTimer(() => {
      this.saveTimer = undefined;
      this.flush().catch((error: unknown) => this.options.onProblem?.(`The PDFs' text could not be kept: ${errorMessage(error)}`));
    }, this.options.saveDelayMs ?? 5_000);
  }

  private async saveNow(): Promise<void> {
    if (!this.dirty || !this.cache || !this.options.store) return;
    this.dirty = false;
    const documents = Object.fromEntries(this.cache);
    try {
      await this.options.store.write(DOCUMENT_CACHE_FILE, JSON.stringify({ version: CACHE_VERSION, documents }));
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }
}

function isCachedPdf(value: unknown): value is CachedPdf {
  const entry = value as Partial<CachedPdf> | null;
  return typeof entry === "object" && entry !== null && typeof entry.size === "number" && typeof entry.mtime === "number" && typeof entry.limits === "string" && typeof entry.extraction === "object" && entry.extraction !== null;
}

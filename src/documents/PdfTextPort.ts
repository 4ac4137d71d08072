/**
 * The port to a PDF's text layer. Two implementations share the extraction (`pdfText.ts`): the
 * plugin's opens PDFs with the pdf.js Obsidian ships (`loadPdfJs`, nothing added to main.js, and it
 * runs on phones), the CLI's and the tests' with `pdfjs-dist` in a worker thread (Node only).
 */
export interface PdfTextPort {
  /** The text of the PDF's pages, or why there is none; never throws for a bad PDF (only for an abort). */
  extract(bytes: Uint8Array, options: PdfExtractOptions): Promise<PdfExtraction>;
  /** Lets go of what the port holds (the CLI's worker thread); called when the services close. */
  dispose?(): Promise<void>;
}

export interface PdfExtractOptions {
  /** Pages read at most; the rest of a longer PDF is left out, and the result says so. */
  maxPages: number;
  /** Characters kept at most over all pages; the page where the cap falls is cut, and the result says so. */
  maxCharacters: number;
  signal?: AbortSignal;
  /** Hands the thread back between pages (a big PDF is read in the background); a zero-delay timer by default. */
  yieldNow?: () => Promise<void>;
}

/** Why a PDF gave no text: each is named to the user and the model as such, never as an empty document. */
export type PdfProblem = "no text layer" | "encrypted" | "could not be read";

export type PdfExtraction =
  | {
      ok: true;
      /** Page texts, page 1 first; a page without text is "". */
      pages: string[];
      /** Pages the PDF has (more than `pages.length` when the page cap was reached). */
      pageCount: number;
      /** Set when a cap left text out. */
      capped?: { pages: boolean; characters: boolean };
    }
  | { ok: false; problem: PdfProblem; detail: string; pageCount?: number };

/**
 * A pdf.js that has opened one PDF: its page count and each page's text items. The plugin wraps
 * Obsidian's pdf.js in it, the CLI a pdf.js in a worker thread.
 */
export interface OpenedPdf {
  pageCount: number;
  /** The text items of page `pageNumber` (1-based), as pdf.js's `getTextContent` gives them. */
  pageItems(pageNumber: number): Promise<PdfTextItem[]>;
  close(): Promise<void>;
}

export interface PdfTextItem {
  str: string;
  hasEOL?: boolean;
}

/** Opens a PDF's bytes with some pdf.js; rejects with pdf.js's own errors (their `name` tells encrypted from broken). */
export type PdfOpener = (bytes: Uint8Array, signal?: AbortSignal) => Promise<OpenedPdf>;

import { errorMessage } from "../errorMessage";
import { abortReason, delay } from "../ports/timers";
import type { OpenedPdf, PdfExtraction, PdfOpener, PdfTextItem, PdfTextPort } from "./PdfTextPort";

/**
 * The extraction both PDF ports share: open the bytes, read the pages one by one (the thread is
 * handed back between pages, so a 300-page PDF never holds the UI), join each page's text items
 * into lines, stop at the caps, and name a PDF that gives no text: "encrypted" (pdf.js asked for
 * a password), "could not be read" (not a PDF, cut short, damaged), "no text layer" (every page
 * empty: a scan).
 */
export function pdfTextPort(open: PdfOpener): PdfTextPort {
  return {
    async extract(bytes, options): Promise<PdfExtraction> {
      const yieldNow = options.yieldNow ?? (() => delay(0));
      let pdf: OpenedPdf;
      try {
        // pdf.js takes the buffer over (it is detached after the call): hand it a copy.
        pdf = await open(bytes.slice(), options.signal);
      } catch (error) {
        options.signal?.throwIfAborted();
        return openFailure(error);
      }
      try {
        const pages: string[] = [];
        let characters = 0;
        let cutByCharacters = false;
        let lastPageError: unknown;
        let failedPages = 0;
        const readable = Math.min(pdf.pageCount, options.maxPages);
        for (let pageNumber = 1; pageNumber <= readable; pageNumber++) {
          if (options.signal?.aborted) throw abortReason(options.signal);
          let text = "";
          try {
            text = pageText(await pdf.pageItems(pageNumber));
          } catch (error) {
            if (options.signal?.aborted) throw abortReason(options.signal);
            // One damaged page leaves the others readable.
            lastPageError = error;
            failedPages++;
          }
          if (characters + text.length > options.maxCharacters) {
            pages.push(text.slice(0, Math.max(0, options.maxCharacters - characters)));
            cutByCharacters = true;
            break;
          }
          pages.push(text);
          characters += text.length;
          await yieldNow();
        }
        if (failedPages > 0 && failedPages === pages.length) {
          return { ok: false, problem: "could not be read", detail: errorMessage(lastPageError), pageCount: pdf.pageCount };
        }
        if (pages.every((page) => page.trim() === "")) {
          return { ok: false, problem: "no text layer", detail: `none of its ${pdf.pageCount} page${pdf.pageCount === 1 ? "" : "s"} has text (it may be scanned images)`, pageCount: pdf.pageCount };
        }
        const cutByPages = pdf.pageCount > options.maxPages && !cutByCharacters;
        return {
          ok: true,
          pages,
          pageCount: pdf.pageCount,
          ...(cutByPages || cutByCharacters ? { capped: { pages: cutByPages, characters: cutByCharacters } } : {}),
        };
      } finally {
        await pdf.close().catch(() => undefined);
      }
    },
  };
}

/** pdf.js names a PDF that wants a password `PasswordException`; every other failure to open is a PDF we cannot read. */
function openFailure(error: unknown): PdfExtraction {
  const name = typeof error === "object" && error !== null ? (error as { name?: unknown }).name : undefined;
  if (name === "PasswordException") return { ok: false, problem: "encrypted", detail: "it is protected by a password" };
  return { ok: false, problem: "could not be read", detail: errorMessage(error) };
}

/**
 * A page's text from its items: pdf.js marks the item that ends a line (`hasEOL`); spaces come as
 * items of their own or inside them. Runs of spaces are made one, lines trimmed, empty lines
 * dropped, ligatures (ﬁ, ﬂ) spelt out so the words are found, and form feeds, which the index
 * uses between pages, removed.
 */
export function pageText(items: readonly PdfTextItem[]): string {
  let text = "";
  for (const item of items) {
    text += item.str;
    if (item.hasEOL) text += "\n";
  }
  return text
    .replace(/[\uFB00-\uFB06]/g, (ligature) => ligature.normalize("NFKC"))
    .replaceAll("\f", " ")
    .replaceAll("\u0000", " ")
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t\u00A0]+/g, " ").trim())
    .filter((line) => line.length > 0)
    .join("\n");
}

/** The part of a pdf.js module the opener uses (Obsidian's `loadPdfJs()` and `pdfjs-dist` both have it). */
export interface PdfJsModule {
  getDocument(source: Record<string, unknown>): {
    promise: Promise<PdfJsDocument>;
    destroy(): Promise<void>;
  };
}

interface PdfJsDocument {
  numPages: number;
  getPage(pageNumber: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup(): void }>;
  destroy(): Promise<void>;
}

/** An opener over a pdf.js module: no eval, no fonts loaded for display, no console output. */
export function pdfJsOpener(pdfjs: PdfJsModule): PdfOpener {
  return async (bytes, signal) => {
    const task = pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
    const stop = () => void task.destroy();
    signal?.addEventListener("abort", stop, { once: true });
    try {
      const document = await task.promise;
      return {
        pageCount: document.numPages,
        async pageItems(pageNumber) {
          const page = await document.getPage(pageNumber);
          try {
            const content = await page.getTextContent();
            return content.items.filter(isTextItem);
          } finally {
            page.cleanup();
          }
        },
        close: () => document.destroy(),
      };
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  };
}

/** pdf.js's items are text items or marked-content markers (which carry no `str`). */
function isTextItem(item: unknown): item is PdfTextItem {
  return typeof item === "object" && item !== null && typeof (item as { str?: unknown }).str === "string";
}

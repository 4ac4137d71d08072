import { loadPdfJs } from "obsidian";
import type { PdfTextPort } from "./PdfTextPort";
import { pdfJsOpener, pdfTextPort, type PdfJsModule } from "./pdfText";

/**
 * The plugin's PDF port: the pdf.js Obsidian ships for its PDF viewer (`loadPdfJs`), loaded the
 * first time a PDF is read. Nothing of pdf.js is bundled into main.js, and it runs where
 * Obsidian does, phones included (Obsidian's pdf.js parses in its own web worker).
 */
export function obsidianPdfText(): PdfTextPort {
  let pdfjs: Promise<PdfJsModule> | undefined;
  return pdfTextPort(async (bytes, signal) => {
    pdfjs ??= loadPdfJs() as Promise<PdfJsModule>;
    pdfjs.catch(() => (pdfjs = undefined));
    return pdfJsOpener(await pdfjs)(bytes, signal);
  });
}

/**
 * Obsidian's `loadPdfJs` (the pdf.js of its PDF viewer). The double has no pdf.js to give:
 * pdfjs-dist is an ES module the jest realm cannot load, and the demo page carries no copy. It
 * refuses, so a PDF read through the plugin here is named "could not be read" with this reason;
 * the CLI and the tests read PDFs with pdfjs-dist in a worker thread (src/documents/node/).
 */
export function loadPdfJs(): Promise<never> {
  return Promise.reject(new Error("pdf.js is not available in the Obsidian test double"));
}

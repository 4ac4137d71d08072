/** The kinds of vault file the copilot reads as text: notes, PDFs (their text layer) and canvases. */
export type DocumentKind = "markdown" | "pdf" | "canvas";

/** The kind of the file at `path`, by its extension; null for a file that is not read as text here. */
export function documentKind(path: string): DocumentKind | null {
  const lower = path.toLowerCase();
  if (lower.endsWith(".md")) return "markdown";
  if (lower.endsWith(".pdf")) return "pdf";
  if (lower.endsWith(".canvas")) return "canvas";
  return null;
}

/** True for a PDF or a canvas: a file that is read through `DocumentReader` rather than as a note's text. */
export function isDocumentFile(path: string): boolean {
  const kind = documentKind(path);
  return kind === "pdf" || kind === "canvas";
}

/** "Papers/x.pdf" at page 2 gives "Papers/x.pdf#page=2": the link Obsidian opens the PDF at that page with. */
export function pageLink(path: string, page: number | undefined): string {
  return page === undefined ? path : `${path}#page=${page}`;
}

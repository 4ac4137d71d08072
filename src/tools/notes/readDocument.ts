import { DocumentReader, type DocumentSource } from "../../documents/DocumentReader";
import { capNotice, pageMarker, type DocumentText } from "../../documents/documentText";
import type { VaultPort } from "../../vault/VaultPort";
import { splitIntoChunks } from "./noteText";

/** One chunk of a document as readNote returns it: its text and, for a PDF, the pages it holds. */
export interface DocumentChunks {
  chunks: string[];
  /** Per chunk, the first and last page it holds (PDFs only). */
  pageRanges?: Array<{ first: number; last: number }>;
  pageCount?: number;
  /** What the caps left out, said to the model with every chunk. */
  notice?: string;
}

/** A PDF's or canvas's text in chunks of at most `maxChars`; a PDF's chunks hold whole pages where a page fits. */
export async function documentChunks(vault: VaultPort, documents: DocumentSource | undefined, path: string, maxChars: number, signal?: AbortSignal): Promise<DocumentChunks> {
  const reader = documents ?? new DocumentReader({ vault, pdf: null });
  const document = await reader.read(path, signal);
  if (document.kind === "canvas") return { chunks: splitIntoChunks(document.text, maxChars) };
  return pdfChunks(document, maxChars);
}

function pdfChunks(document: Extract<DocumentText, { kind: "pdf" }>, maxChars: number): DocumentChunks {
  const chunks: string[] = [];
  const pageRanges: Array<{ first: number; last: number }> = [];
  let current: string[] = [];
  let currentLength = 0;
  let first = 1;
  const close = (last: number) => {
    if (current.length === 0) return;
    chunks.push(current.join("\n\n"));
    pageRanges.push({ first, last });
    current = [];
    currentLength = 0;
  };
  document.pages.forEach((text, index) => {
    const page = index + 1;
    const body = text.trim() === "" ? "(no text on this page)" : text;
    const block = `${pageMarker(page)}\n${body}`;
    if (currentLength > 0 && currentLength + block.length + 2 > maxChars) close(page - 1);
    if (current.length === 0) first = page;
    if (block.length <= maxChars) {
      current.push(block);
      currentLength += block.length + 2;
      return;
    }
    // A page longer than a chunk is cut; each piece keeps its page's marker.
    close(page - 1);
    const pieces = splitIntoChunks(body, maxChars - 40);
    pieces.forEach((piece, pieceIndex) => {
      chunks.push(`${pieceIndex === 0 ? pageMarker(page) : `[page ${page}, continued]`}\n${piece}`);
      pageRanges.push({ first: page, last: page });
    });
  });
  close(document.pages.length);
  const notice = capNotice(document);
  return { chunks, pageRanges, pageCount: document.pageCount, ...(notice ? { notice } : {}) };
}

/** The chunk that holds `page`, for "Papers/x.pdf#page=3". */
export function chunkOfPage(ranges: ReadonlyArray<{ first: number; last: number }>, page: number): number | null {
  const index = ranges.findIndex((range) => page >= range.first && page <= range.last);
  return index === -1 ? null : index;
}

import type { ToolFailure } from "../errorMessage";
import type { PdfProblem } from "./PdfTextPort";

/** A PDF or a canvas as text. */
export type DocumentText = PdfDocumentText | CanvasDocumentText;

export interface PdfDocumentText {
  kind: "pdf";
  path: string;
  /** Page texts, page 1 first ("" for a page without text). */
  pages: string[];
  /** Pages the PDF has (more than `pages.length` when the page cap left some out). */
  pageCount: number;
  /** Set when a cap left text out: the caps in force and which of them was reached. */
  capped?: { pages: boolean; characters: boolean; maxPages: number; maxCharacters: number };
}

export interface CanvasDocumentText {
  kind: "canvas";
  path: string;
  /** The canvas as a Markdown outline (canvasOutline.ts). */
  text: string;
}

/** How much of one PDF is read: enough for a long book, bounded so one file cannot fill memory. */
export interface DocumentLimits {
  maxPdfPages: number;
  maxPdfCharacters: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxPdfPages: 2_000, maxPdfCharacters: 3_000_000 };

/** What the index puts between two pages of a PDF's text: a line that extracted text never holds. */
export const PAGE_BREAK = "\f";

/**
 * A document's text as the index reads it: a canvas's outline, a PDF's pages with a form-feed
 * line between two pages (so a passage knows its page). A PDF's lines that Markdown would read as
 * a heading, a fence or frontmatter are escaped, so the text stays one plain passage per page.
 */
export function indexTextOf(document: DocumentText): string {
  if (document.kind === "canvas") return document.text;
  return document.pages.map((page) => page.split("\n").map(escapeMarkdownStart).join("\n")).join(`\n${PAGE_BREAK}\n`);
}

function escapeMarkdownStart(line: string): string {
  return /^(#|```|~~~|---|\+\+\+)/.test(line) ? `\\${line}` : line;
}

/** A page marker as readNote and attachments show it: "[page 3]". */
export function pageMarker(page: number): string {
  return `[page ${page}]`;
}

/**
 * A document's text as the model reads it (readNote, attachments): a PDF's pages each under its
 * "[page N]" line (an empty page says so), and a last line with the caps when they left text out.
 */
export function readableTextOf(document: DocumentText): string {
  if (document.kind === "canvas") return document.text;
  const pages = document.pages.map((page, index) => `${pageMarker(index + 1)}\n${page.trim() === "" ? "(no text on this page)" : page}`);
  const notice = capNotice(document);
  return `${pages.join("\n\n")}${notice ? `\n\n[${notice}]` : ""}`;
}

/** The sentence that says what the caps left out of a PDF, or "" when nothing was. */
export function capNotice(document: DocumentText): string {
  if (document.kind !== "pdf" || !document.capped) return "";
  const { capped, pageCount, pages } = document;
  if (capped.characters) {
    return `Only the first ${formatCount(capped.maxCharacters)} characters of this PDF were read (to page ${pages.length} of ${formatCount(pageCount)}): the cap on a PDF's text.`;
  }
  return `Only the first ${formatCount(capped.maxPages)} of this PDF's ${formatCount(pageCount)} pages were read: the cap on a PDF's pages.`;
}

function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** A PDF or canvas that gave no text, named as such ("no text layer", "encrypted", "could not be read"). */
export class DocumentReadError extends Error {
  readonly failure: ToolFailure;
  constructor(
    readonly path: string,
    readonly problem: PdfProblem,
    detail: string,
  ) {
    super(documentProblemSentence(path, problem, detail));
    this.name = "DocumentReadError";
    this.failure = { kind: problem === "no text layer" ? "document-no-text" : problem === "encrypted" ? "document-encrypted" : "document-unreadable", values: { path } };
  }
}

function documentProblemSentence(path: string, problem: PdfProblem, rawDetail: string): string {
  const detail = rawDetail.trim().replace(/\.$/, "");
  const quoted = JSON.stringify(path);
  if (problem === "no text layer") return `${quoted} has no text layer: ${detail}. Only its name can be searched; its text cannot be read.`;
  if (problem === "encrypted") return `${quoted} is encrypted (${detail}), so its text cannot be read.`;
  return `${quoted} could not be read: ${detail}.`;
}

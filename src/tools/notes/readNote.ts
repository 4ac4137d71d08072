import { z } from "zod";
import { ToolFailureError } from "../../errorMessage";
import { defuseToolText, escapeXmlAttribute } from "../../context/escapeXml";
import { noteName } from "../../vault/vaultPath";
import type { VaultPort } from "../../vault/VaultPort";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import type { SimpleTool } from "../SimpleTool";
import { findNote } from "./noteLookup";
import { isTextFile, sectionUnder, splitIntoChunks } from "./noteText";
import { requireVault } from "../requireVault";
import { isDocumentFile } from "../../documents/documentKinds";
import type { DocumentSource } from "../../documents/DocumentReader";
import { chunkOfPage, documentChunks } from "./readDocument";

/** About 2,500 tokens: a chunk fits any context window, and few notes need more than one. */
export const READ_NOTE_CHUNK_CHARS = 10_000;

const schema = z.object({
  notePath: z
    .string()
    .min(1)
    .describe(
      'The note: a vault path ("Projects/Plan.md"), a note name as in a wikilink ("Plan", "[[Plan]]"), ' +
        'optionally with a heading ("Plan#Budget") to read only that section. PDFs and canvases are read too ' +
        '("Papers/x.pdf", "Papers/x.pdf#page=3" to start at a page; "Board.canvas").',
    ),
  chunkIndex: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Which part of a long note to read, from 0. Leave out for the first part; the result says how many there are."),
});

export interface ReadNoteResult {
  path: string;
  title: string;
  heading?: string;
  chunkIndex: number;
  totalChunks: number;
  content: string;
  modified?: string;
  /** Set when a heading was asked for but not found (the whole note is returned), or when a cap left part of a PDF out. */
  notice?: string;
  /** For a PDF: the pages this chunk holds, and how many the PDF has. */
  pages?: { first: number; last: number; total: number };
}

export const readNoteTool: BuiltinToolEntry = {
  metadata: {
    id: "readNote",
    displayName: "Read note",
    description: "Lets the model read a note of your vault by path or name.",
    category: "file",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions:
      "Use readNote to read a note the user names or links ([[Note]]) before answering about it or editing it. " +
      "Long notes come in parts: when the result says there are more, call readNote again with the next chunkIndex " +
      "if you need them. Quote note text exactly when you pass it to replaceInFile.",
    wording: { pending: "Would like to read a note", running: "Reading a note", done: "Read a note" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, ReadNoteResult> => ({
    name: "readNote",
    description:
      "Reads a note's text by vault path or note name (wikilink style, optional #heading). Long notes are returned in chunks; pass chunkIndex for the later ones.",
    schema,
    isReadOnly: true,
    func: ({ notePath, chunkIndex }, context) => readNote(requireVault(dependencies), notePath, chunkIndex, dependencies.documents, context.signal),
    formatForModel: formatReadNote,
  }),
};

export async function readNote(
  vault: VaultPort,
  notePath: string,
  askedChunk: number | undefined,
  documents?: DocumentSource,
  signal?: AbortSignal,
): Promise<ReadNoteResult> {
  const { path, heading } = await findNote(vault, notePath);
  if (isDocumentFile(path)) return readDocument(vault, documents, path, heading, askedChunk, signal);
  const chunkIndex = askedChunk ?? 0;
  if (!isTextFile(path)) throw new ToolFailureError(`"${path}" is not a text note; readNote reads Markdown and other text files, PDFs and canvases.`, { kind: "not-text", values: { path } });
  const [text, stat] = await Promise.all([vault.read(path), vault.stat(path)]);
  let body = text;
  let notice: string | undefined;
  if (heading) {
    const headings = (await vault.getMetadata(path))?.headings ?? [];
    const section = sectionUnder(text, headings, heading);
    if (section !== null) body = section;
    else {
      const known = headings.map((h) => `"${h.heading}"`).join(", ");
      notice = `The note has no heading "${heading}"; the whole note is shown.${known ? ` Its headings: ${known}.` : ""}`;
    }
  }
  const chunks = splitIntoChunks(body, READ_NOTE_CHUNK_CHARS);
  if (chunkIndex >= chunks.length) throw chunkPastEnd(path, chunkIndex, chunks.length);
  return {
    path,
    title: noteName(path),
    ...(heading && notice === undefined ? { heading } : {}),
    chunkIndex,
    totalChunks: chunks.length,
    content: chunks[chunkIndex] ?? "",
    ...(stat ? { modified: new Date(stat.mtime).toISOString() } : {}),
    ...(notice ? { notice } : {}),
  };
}

/**
 * A PDF or canvas by chunks: a PDF's chunks hold whole pages (each under its "[page N]" line) and
 * say which; "x.pdf#page=3" starts at the chunk holding page 3.
 */
async function readDocument(
  vault: VaultPort,
  documents: DocumentSource | undefined,
  path: string,
  heading: string | undefined,
  askedChunk: number | undefined,
  signal: AbortSignal | undefined,
): Promise<ReadNoteResult> {
  const [read, stat] = await Promise.all([documentChunks(vault, documents, path, READ_NOTE_CHUNK_CHARS, signal), vault.stat(path)]);
  const askedPage = /^page=(\d+)$/i.exec(heading ?? "");
  let chunkIndex = askedChunk ?? 0;
  const notices: string[] = [];
  if (askedPage && read.pageRanges && askedChunk === undefined) {
    const page = Number(askedPage[1]);
    const found = chunkOfPage(read.pageRanges, page);
    if (found !== null) chunkIndex = found;
    else notices.push(`Page ${page} is not among the pages read (1-${read.pageRanges.at(-1)?.last ?? 0}); the first part is shown.`);
  } else if (heading) {
    notices.push(`A ${read.pageRanges ? "PDF" : "canvas"} has no heading "${heading}"; ${read.pageRanges ? 'name a page as "#page=N"' : "the whole canvas is shown"}.`);
  }
  if (chunkIndex >= read.chunks.length) throw chunkPastEnd(path, chunkIndex, read.chunks.length);
  if (read.notice) notices.push(read.notice);
  const range = read.pageRanges?.[chunkIndex];
  return {
    path,
    title: noteName(path),
    chunkIndex,
    totalChunks: read.chunks.length,
    content: read.chunks[chunkIndex] ?? "",
    ...(stat ? { modified: new Date(stat.mtime).toISOString() } : {}),
    ...(notices.length > 0 ? { notice: notices.join(" ") } : {}),
    ...(range ? { pages: { ...range, total: read.pageCount ?? range.last } } : {}),
  };
}

/** A chunk asked for past a note's last one: the model's sentence counts from 0, the view's parts by count. */
function chunkPastEnd(path: string, chunkIndex: number, count: number): ToolFailureError {
  return new ToolFailureError(`chunkIndex ${chunkIndex} is past the end of "${path}": it has ${count} chunk${count === 1 ? "" : "s"} (0-${count - 1}).`, {
    kind: "chunk-past-end",
    values: { path, count },
  });
}

export function formatReadNote(result: ReadNoteResult): string {
  const attributes = [
    `path="${escapeXmlAttribute(result.path)}"`,
    `title="${escapeXmlAttribute(result.title)}"`,
    result.heading ? `section="${escapeXmlAttribute(result.heading)}"` : "",
    `chunk="${result.chunkIndex + 1} of ${result.totalChunks}"`,
    result.pages ? `pages="${result.pages.first === result.pages.last ? result.pages.first : `${result.pages.first}-${result.pages.last}`} of ${result.pages.total}"` : "",
    result.modified ? `modified="${result.modified}"` : "",
  ].filter(Boolean);
  // The text stays verbatim (the model copies it into edits) but for its own closing tag and the label.
  const lines = [`<note ${attributes.join(" ")}>`, defuseToolText(result.content, "note"), "</note>"];
  if (result.notice) lines.unshift(defuseToolText(result.notice));
  if (result.chunkIndex + 1 < result.totalChunks) {
    lines.push(
      `This is part ${result.chunkIndex + 1} of ${result.totalChunks}. Call readNote with chunkIndex ${result.chunkIndex + 1} for the next part.`,
    );
  }
  return lines.join("\n");
}

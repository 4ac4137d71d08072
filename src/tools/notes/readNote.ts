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

/** About 2,500 tokens: a chunk fits any context window, and few notes need more than one. */
export const READ_NOTE_CHUNK_CHARS = 10_000;

const schema = z.object({
  notePath: z
    .string()
    .min(1)
    .describe(
      'The note: a vault path ("Projects/Plan.md"), a note name as in a wikilink ("Plan", "[[Plan]]"), ' +
        'optionally with a heading ("Plan#Budget") to read only that section.',
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
  /** Set when a heading was asked for but not found (the whole note is returned). */
  notice?: string;
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
    func: ({ notePath, chunkIndex }) => readNote(requireVault(dependencies), notePath, chunkIndex ?? 0),
    formatForModel: formatReadNote,
  }),
};

export async function readNote(vault: VaultPort, notePath: string, chunkIndex: number): Promise<ReadNoteResult> {
  const { path, heading } = await findNote(vault, notePath);
  if (!isTextFile(path)) throw new ToolFailureError(`"${path}" is not a text note; readNote reads Markdown and other text files.`, { kind: "not-text", values: { path } });
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
  if (chunkIndex >= chunks.length) {
    throw new RangeError(
      `chunkIndex ${chunkIndex} is past the end of "${path}": it has ${chunks.length} chunk${chunks.length === 1 ? "" : "s"} (0-${chunks.length - 1}).`,
    );
  }
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

export function formatReadNote(result: ReadNoteResult): string {
  const attributes = [
    `path="${escapeXmlAttribute(result.path)}"`,
    `title="${escapeXmlAttribute(result.title)}"`,
    result.heading ? `section="${escapeXmlAttribute(result.heading)}"` : "",
    `chunk="${result.chunkIndex + 1} of ${result.totalChunks}"`,
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

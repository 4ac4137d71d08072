import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatchHunk } from "diff";

/**
 * Diffs for edit proposals: a unified diff as text (for the model, the CLI and logs) and the same
 * hunks as structured lines (for the approval view, which colours them without parsing text).
 *
 * Aligning lines (Myers' algorithm) costs time quadratic in the number of changed lines, and it
 * runs on the thread that draws Obsidian: 20,000 changed lines once held it for four minutes.
 * So the lines both texts share at the start and at the end are set aside first (linear), and the
 * changed stretch between them is aligned only while it needs at most MAX_ALIGNED_LINE_CHANGES
 * added plus removed lines; past that it is shown whole, as removed and then added. The diff is
 * then coarser but always true, and it takes a fraction of a second at any size.
 */
export type DiffLineKind = "context" | "added" | "removed" | "note";

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its "+", "-" or " " marker. */
  text: string;
  /** 1-based line in the old text (context and removed lines). */
  oldLine?: number;
  /** 1-based line in the new text (context and added lines). */
  newLine?: number;
}

export interface DiffHunk {
  /** "@@ -3,4 +3,5 @@" */
  header: string;
  lines: DiffLine[];
}

export const DIFF_CONTEXT_LINES = 3;

/** The most added plus removed lines that are aligned line by line (about 0.1 s at worst). */
export const MAX_ALIGNED_LINE_CHANGES = 500;

/** The diff's hunks with each line numbered in the old and new text. */
export function buildDiffHunks(before: string | null, after: string, context = DIFF_CONTEXT_LINES): DiffHunk[] {
  return diffHunks(before ?? "", after, context).map(numberedHunk);
}

/** Both forms of one diff, computed once (an edit proposal needs the two). */
export function diffEdit(path: string, before: string | null, after: string, context = DIFF_CONTEXT_LINES): { unified: string; hunks: DiffHunk[] } {
  const hunks = diffHunks(before ?? "", after, context);
  return { unified: formatUnified(path, before === null, hunks), hunks: hunks.map(numberedHunk) };
}

function formatUnified(path: string, created: boolean, hunks: StructuredPatchHunk[]): string {
  const patch = { oldFileName: created ? "/dev/null" : `a/${path}`, newFileName: `b/${path}`, oldHeader: undefined, newHeader: undefined, hunks };
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

function numberedHunk(hunk: StructuredPatchHunk): DiffHunk {
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  const lines: DiffLine[] = hunk.lines.map((raw) => {
    const marker = raw[0];
    const text = raw.slice(1);
    if (marker === "+") return { kind: "added", text, newLine: newLine++ };
    if (marker === "-") return { kind: "removed", text, oldLine: oldLine++ };
    if (marker === "\\") return { kind: "note", text: raw.slice(2) };
    return { kind: "context", text, oldLine: oldLine++, newLine: newLine++ };
  });
  return { header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, lines };
}

/** Lines added and removed, for a one-line summary ("+3 -1"). */
export function countChangedLines(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.kind === "added") added++;
      else if (line.kind === "removed") removed++;
    }
  }
  return { added, removed };
}

/** The hunks of a line diff, in the `diff` package's shape (lines carry their marker). */
function diffHunks(before: string, after: string, context: number): StructuredPatchHunk[] {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const shorter = Math.min(oldLines.length, newLines.length);
  let prefix = 0;
  while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) suffix++;
  if (prefix === oldLines.length && prefix === newLines.length) return [];

  // The changed stretch with the context lines around it: the hunks of the whole texts are the
  // hunks of this window, moved down by the lines before it.
  const contextBefore = Math.min(prefix, context);
  const contextAfter = Math.min(suffix, context);
  const offset = prefix - contextBefore;
  const oldWindow = oldLines.slice(offset, oldLines.length - suffix + contextAfter);
  const newWindow = newLines.slice(offset, newLines.length - suffix + contextAfter);

  const oldStretch = oldLines.slice(prefix, oldLines.length - suffix);
  const newStretch = newLines.slice(prefix, newLines.length - suffix);
  // When one side of the stretch is empty there is nothing to align; when it surely needs more
  // changes than the bound, aligning would only spend the time to find that out.
  const worthAligning = oldStretch.length > 0 && newStretch.length > 0 && leastLineChanges(oldStretch, newStretch) <= MAX_ALIGNED_LINE_CHANGES;
  const aligned = worthAligning
    ? structuredPatch("", "", oldWindow.join(""), newWindow.join(""), undefined, undefined, { context, maxEditLength: MAX_ALIGNED_LINE_CHANGES })
    : undefined;
  const hunks = aligned?.hunks ?? [wholeStretchHunk(oldWindow, newWindow, contextBefore, contextAfter)];
  return hunks.map((hunk) => ({ ...hunk, oldStart: hunk.oldStart + offset, newStart: hunk.newStart + offset }));
}

/** One hunk that shows the changed stretch of the window as removed, then added. */
function wholeStretchHunk(oldWindow: string[], newWindow: string[], contextBefore: number, contextAfter: number): StructuredPatchHunk {
  const marked = [
    ...oldWindow.slice(0, contextBefore).map((line) => ` ${line}`),
    ...oldWindow.slice(contextBefore, oldWindow.length - contextAfter).map((line) => `-${line}`),
    ...newWindow.slice(contextBefore, newWindow.length - contextAfter).map((line) => `+${line}`),
    ...oldWindow.slice(oldWindow.length - contextAfter).map((line) => ` ${line}`),
  ];
  // As in a unified diff: line ends dropped, and a note after a last line that has none.
  const lines: string[] = [];
  for (const line of marked) {
    if (line.endsWith("\n")) lines.push(line.slice(0, -1));
    else lines.push(line, "\\ No newline at end of file");
  }
  return { oldStart: 1, oldLines: oldWindow.length, newStart: 1, newLines: newWindow.length, lines };
}

/**
 * A lower bound of the added plus removed lines any alignment needs: every line of one side that
 * the other side lacks is one of them. Linear, where the alignment itself is not.
 */
function leastLineChanges(oldLines: readonly string[], newLines: readonly string[]): number {
  const oldSet = new Set(oldLines);
  const newSet = new Set(newLines);
  let changes = 0;
  for (const line of oldLines) if (!newSet.has(line)) changes++;
  for (const line of newLines) if (!oldSet.has(line)) changes++;
  return changes;
}

/** The text's lines, each with its line end ("\n" or "\r\n"); the last one may have none. Joined, they are the text. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const next = end === -1 ? text.length : end + 1;
    lines.push(text.slice(start, next));
    start = next;
  }
  return lines;
}

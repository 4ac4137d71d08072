import { createTwoFilesPatch, FILE_HEADERS_ONLY, structuredPatch } from "diff";

/**
 * Diffs for edit proposals: a unified diff as text (for the model, the CLI and logs) and the same
 * hunks as structured lines (for the approval view, which colours them without parsing text).
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

/** The unified diff from `before` (null: the note is new) to `after`, headed with the path. */
export function renderUnifiedDiff(path: string, before: string | null, after: string, context = DIFF_CONTEXT_LINES): string {
  return createTwoFilesPatch(before === null ? "/dev/null" : `a/${path}`, `b/${path}`, before ?? "", after, undefined, undefined, {
    context,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** The diff's hunks with each line numbered in the old and new text. */
export function buildDiffHunks(before: string | null, after: string, context = DIFF_CONTEXT_LINES): DiffHunk[] {
  const patch = structuredPatch("before", "after", before ?? "", after, undefined, undefined, { context });
  return patch.hunks.map((hunk) => {
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
  });
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

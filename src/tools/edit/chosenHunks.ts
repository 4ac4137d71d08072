import { splitLines, type DiffHunk } from "./editDiff";

/**
 * Applies some of an edit's changes: the text before the edit with only the chosen hunks of its
 * diff taken from the text after it (indices into `hunks`, the diff of `before` to `after` as
 * `buildDiffHunks` or `diffEdit` made it). The rest of the note stays byte for byte as it was:
 * unchosen hunks keep their old lines, line ends included. All hunks chosen gives `after`; none
 * gives `before`.
 */
export function applyChosenHunks(before: string, after: string, hunks: readonly DiffHunk[], chosen: ReadonlySet<number>): string {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const out: string[] = [];
  let oldPosition = 0;
  let newPosition = 0;
  hunks.forEach((hunk, index) => {
    const { oldStart, oldCount, newStart, newCount } = hunkRange(hunk, newPosition - oldPosition);
    // Between hunks both texts hold the same lines.
    out.push(...oldLines.slice(oldPosition, oldStart));
    out.push(...(chosen.has(index) ? newLines.slice(newStart, newStart + newCount) : oldLines.slice(oldStart, oldStart + oldCount)));
    oldPosition = oldStart + oldCount;
    newPosition = newStart + newCount;
  });
  out.push(...oldLines.slice(oldPosition));
  return out.join("");
}

/**
 * Where a hunk sits in each text (0-based first line, line count), from its numbered lines. A
 * side with no lines (an insertion into an empty note) sits where the other side's start puts it:
 * outside hunks the two texts' lines are `shift` apart.
 */
function hunkRange(hunk: DiffHunk, shift: number): { oldStart: number; oldCount: number; newStart: number; newCount: number } {
  const oldNumbers = hunk.lines.flatMap((line) => (line.oldLine === undefined ? [] : [line.oldLine]));
  const newNumbers = hunk.lines.flatMap((line) => (line.newLine === undefined ? [] : [line.newLine]));
  const oldFirst = oldNumbers[0];
  const newFirst = newNumbers[0];
  const oldStart = oldFirst !== undefined ? oldFirst - 1 : (newFirst ?? 1) - 1 - shift;
  const newStart = newFirst !== undefined ? newFirst - 1 : oldStart + shift;
  return { oldStart, oldCount: oldNumbers.length, newStart, newCount: newNumbers.length };
}

/** Where a hunk is in the note as it is now: its removed lines' numbers, or the line its added lines follow. */
export type HunkSpot = { kind: "start" } | { kind: "after"; line: number } | { kind: "lines"; first: number; last: number };

export function hunkSpot(hunk: DiffHunk): HunkSpot {
  const oldNumbers = hunk.lines.flatMap((line) => (line.oldLine === undefined || line.kind !== "removed" ? [] : [line.oldLine]));
  if (oldNumbers.length === 0) {
    // Only lines added: named by the line they follow.
    const firstAdded = hunk.lines.findIndex((line) => line.kind === "added");
    const follows = hunk.lines.slice(0, Math.max(0, firstAdded)).findLast((line) => line.oldLine !== undefined)?.oldLine;
    return follows === undefined ? { kind: "start" } : { kind: "after", line: follows };
  }
  return { kind: "lines", first: oldNumbers[0]!, last: oldNumbers.at(-1)! };
}

/** Where a hunk is, in English words: "lines 12–14", "line 3", "after line 7" (the card says it in the interface's language). */
export function hunkPlace(hunk: DiffHunk): string {
  const spot = hunkSpot(hunk);
  if (spot.kind === "start") return "at the start";
  if (spot.kind === "after") return `after line ${spot.line}`;
  return spot.first === spot.last ? `line ${spot.first}` : `lines ${spot.first}–${spot.last}`;
}

/**
 * The pieces of Markdown that note metadata is read from, written once for the two readers:
 * `markdownMetadata` (everything Obsidian's metadata cache reports, for FsVault) and the search
 * index's `noteOutline` (headings and tags only, in its hot loop).
 */

/** Obsidian's tag rule: letters, digits, "_", "-", "/" (nesting), not all digits, after the start or whitespace. Global: use with matchAll. */
export const INLINE_TAG = /(^|\s)#((?=[\p{L}\p{N}_/-]*[\p{L}_/-])[\p{L}\p{N}_/-]+)/gu;
/** An ATX heading: its level marks and its text. */
export const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
/** A leading `---` YAML block (closed by `---` or `...`), after a byte-order mark if the note has one. */
export const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

const FENCE = /^\s{0,3}(```+|~~~+)/;

/**
 * Follows fenced code blocks line by line. `fence` is the open fence's character or null;
 * returns the state after `line` and whether the line itself was a fence line.
 */
export function followFence(line: string, fence: string | null): { fence: string | null; fenceLine: boolean } {
  const match = FENCE.exec(line);
  if (!match) return { fence, fenceLine: false };
  const marker = match[1] ?? "";
  if (fence === null) return { fence: marker[0] ?? null, fenceLine: true };
  return { fence: marker.startsWith(fence) ? null : fence, fenceLine: true };
}

/** The line with inline code blanked out (tags and links inside code do not count). */
export function withoutInlineCode(line: string): string {
  return line.includes("`") ? line.replace(/`[^`]*`/g, " ") : line;
}

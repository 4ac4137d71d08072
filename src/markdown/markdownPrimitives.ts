/**
 * The pieces of Markdown that note metadata is read from, written once for every reader:
 * `markdownMetadata` (everything Obsidian's metadata cache reports, for FsVault), the search
 * index's `noteOutline` (headings and tags only, in its hot loop) and the embeddings' note
 * sections. Fenced code is `fences.ts`.
 */

/** Obsidian's tag rule: letters, digits, "_", "-", "/" (nesting), not all digits, after the start or whitespace. Global: use with matchAll. */
export const INLINE_TAG = /(^|\s)#((?=[\p{L}\p{N}_/-]*[\p{L}_/-])[\p{L}\p{N}_/-]+)/gu;
/** An ATX heading: its level marks and its text. */
export const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
/** A leading `---` YAML block (closed by `---` or `...`), after a byte-order mark if the note has one. */
export const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** The line with inline code blanked out (tags and links inside code do not count). */
export function withoutInlineCode(line: string): string {
  return line.includes("`") ? line.replace(/`[^`]*`/g, " ") : line;
}

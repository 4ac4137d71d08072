import { frontmatterAliases, frontmatterTags } from "../vault/frontmatterFields";
import { splitFrontmatter } from "../vault/markdownMetadata";
import { parseSimpleFrontmatter } from "./simpleFrontmatter";
import type { HeadingInfo } from "../vault/VaultPort";

/** What the index needs of a note's structure: its lines, headings, tags and frontmatter. */
export interface NoteOutline {
  frontmatter: Record<string, unknown>;
  lines: string[];
  /** The first line after the frontmatter. */
  bodyStartLine: number;
  headings: HeadingInfo[];
  /** Without the leading "#", frontmatter tags first. */
  tags: string[];
  aliases: string[];
}

// Obsidian's tag rule (as in vault/markdownMetadata.ts): letters, digits, "_", "-", "/", not all digits.
const INLINE_TAG = /(^|\s)#((?=[\p{L}\p{N}_/-]*[\p{L}_/-])[\p{L}\p{N}_/-]+)/gu;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(```+|~~~+)/;
// The frontmatter block as vault/markdownMetadata.ts's splitFrontmatter finds it.
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Reads headings, tags and aliases the way Obsidian's metadata cache does (code blocks and inline
 * code skipped), in one pass over the lines. It is `parseMarkdownMetadata` without links, which
 * the index has no use for and which cost more than the rest when indexing a whole vault.
 */
export function readNoteOutline(text: string): NoteOutline {
  const { frontmatter, bodyStartLine } = readFrontmatter(text);
  const lines = text.split(/\r?\n/);
  const headings: HeadingInfo[] = [];
  const tags = frontmatterTags(frontmatter).map((tag) => tag.replace(/^#/, ""));

  let fence: string | null = null;
  for (let index = bodyStartLine; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.includes("```") || line.includes("~~~")) {
      const fenceMatch = FENCE.exec(line);
      if (fenceMatch) {
        const marker = fenceMatch[1] ?? "";
        if (fence === null) fence = marker[0] ?? null;
        else if (marker.startsWith(fence)) fence = null;
        continue;
      }
    }
    if (fence !== null || !line.includes("#")) continue;
    const heading = line.startsWith("#") ? HEADING.exec(line) : null;
    if (heading) headings.push({ level: heading[1]?.length ?? 1, heading: heading[2] ?? "", line: index });
    const visible = line.includes("`") ? line.replace(/`[^`]*`/g, " ") : line;
    for (const match of visible.matchAll(INLINE_TAG)) tags.push(match[2] ?? "");
  }
  return { frontmatter, lines, bodyStartLine, headings, tags: [...new Set(tags.filter(Boolean))], aliases: frontmatterAliases(frontmatter) };
}

/** The frontmatter, read by the quick subset parser when it can, else by the full YAML parser. */
function readFrontmatter(text: string): { frontmatter: Record<string, unknown>; bodyStartLine: number } {
  if (!text.startsWith("---")) return { frontmatter: {}, bodyStartLine: 0 };
  const match = FRONTMATTER.exec(text);
  if (!match) return { frontmatter: {}, bodyStartLine: 0 };
  const block = match[1] ?? "";
  const simple = parseSimpleFrontmatter(block);
  if (simple) return { frontmatter: simple, bodyStartLine: block.split(/\r?\n/).length + 2 };
  return splitFrontmatter(text);
}

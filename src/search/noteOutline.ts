import { frontmatterAliases, frontmatterTags } from "../vault/frontmatterFields";
import { splitFrontmatter } from "../vault/markdownMetadata";
import { fenceMayChange, followFence, type OpenFence } from "../markdown/fences";
import { FRONTMATTER, HEADING, INLINE_TAG, withoutInlineCode } from "../markdown/markdownPrimitives";
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

  let fence: OpenFence | null = null;
  for (let index = bodyStartLine; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (fenceMayChange(line, fence)) {
      const followed = followFence(line, fence);
      fence = followed.open;
      if (followed.role !== "text") continue;
    }
    if (fence !== null || !line.includes("#")) continue;
    const heading = line.startsWith("#") ? HEADING.exec(line) : null;
    if (heading) headings.push({ level: heading[1]?.length ?? 1, heading: heading[2] ?? "", line: index });
    for (const match of withoutInlineCode(line).matchAll(INLINE_TAG)) tags.push(match[2] ?? "");
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

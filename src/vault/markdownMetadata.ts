import { parse as parseYaml } from "yaml";
import { frontmatterAliases, frontmatterTags } from "./frontmatterFields";
import { followFence, type OpenFence } from "../markdown/fences";
import { FRONTMATTER, HEADING, INLINE_TAG, withoutInlineCode } from "../markdown/markdownPrimitives";
import type { HeadingInfo, LinkInfo, NoteMetadata } from "./VaultPort";

/**
 * Reads a note's frontmatter, tags, aliases, links and headings from its text, the way Obsidian's
 * metadata cache reports them. Used by `FsVault`; `ObsidianVault` takes them from the app.
 * Code blocks and inline code are skipped for tags, links and headings, as in Obsidian.
 */
export function parseMarkdownMetadata(text: string): NoteMetadata {
  const { frontmatter, bodyStartLine } = splitFrontmatter(text);
  const lines = text.split(/\r?\n/);
  const tags: string[] = frontmatterTags(frontmatter);
  const links: LinkInfo[] = [];
  const headings: HeadingInfo[] = [];

  let fence: OpenFence | null = null;
  for (let index = bodyStartLine; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const followed = followFence(line, fence);
    fence = followed.open;
    if (followed.role !== "text") continue;
    const heading = HEADING.exec(line);
    if (heading) headings.push({ level: heading[1]?.length ?? 1, heading: heading[2] ?? "", line: index });
    const visible = withoutInlineCode(line);
    for (const match of visible.matchAll(INLINE_TAG)) tags.push(`#${match[2] ?? ""}`);
    links.push(...linksWrittenIn(visible));
  }

  return {
    frontmatter,
    tags: unique(tags.filter((t) => t.length > 1)),
    aliases: frontmatterAliases(frontmatter),
    links,
    headings,
  };
}

/**
 * Every wikilink and Markdown link to a note written in `text`, in order. The metadata reader
 * hands it one line at a time, code left out; a reader that must miss none (a project's scope
 * hiding links to notes outside it) hands it a whole note, code and properties included.
 */
export function linksWrittenIn(text: string): LinkInfo[] {
  const links: LinkInfo[] = [];
  for (const match of text.matchAll(WIKILINK)) {
    const inner = match[2] ?? "";
    const target = (inner.split("|")[0] ?? "").split("#")[0]?.trim() ?? "";
    if (target) links.push({ link: target, original: match[0], embed: match[1] === "!" });
  }
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const href = decodeLinkTarget(match[3] ?? "");
    if (href && !/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      links.push({ link: href.split("#")[0] ?? href, original: match[0], embed: match[1] === "!" });
    }
  }
  return links;
}

const WIKILINK = /(!?)\[\[([^\]\n]+?)\]\]/g;
const MARKDOWN_LINK = /(!?)\[([^\]\n]*)\]\(([^)\s]+(?:\s[^)]*)?)\)/g;

function decodeLinkTarget(href: string): string {
  const target = href.trim().replace(/^<|>$/g, "").split(/\s+"/)[0] ?? "";
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** Splits off a leading `---` YAML block; bad YAML yields empty frontmatter rather than an error. */
export function splitFrontmatter(text: string): { frontmatter: Record<string, unknown>; bodyStartLine: number; body: string } {
  const match = FRONTMATTER.exec(text);
  if (!match) return { frontmatter: {}, bodyStartLine: 0, body: text };
  const block = match[1] ?? "";
  const bodyStartLine = block.split(/\r?\n/).length + 2;
  const body = text.slice(match[0].length);
  try {
    const parsed: unknown = parseYaml(block);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      return { frontmatter: parsed as Record<string, unknown>, bodyStartLine, body };
    }
  } catch {
    // A malformed block is kept as text by Obsidian too; it simply carries no properties.
  }
  return { frontmatter: {}, bodyStartLine, body };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

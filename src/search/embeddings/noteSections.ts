import { followFence, type OpenFence } from "../../markdown/fences";
import { FRONTMATTER, HEADING } from "../../markdown/markdownPrimitives";
import { contentHash } from "./contentHash";
import { PAGE_BREAK } from "../../documents/documentText";

/** One piece of a note that is embedded on its own. */
export interface NoteSection {
  /** `path#n`, n counting from 0 in the note's order. */
  key: string;
  /** The heading path ("Setup > Linux"), "" before the first heading. */
  heading: string;
  /** What is embedded: title and heading path, then the section's Markdown. */
  text: string;
  hash: string;
}

/** Sections longer than this are cut again at paragraph boundaries. */
export const MAX_SECTION_CHARS = 2000;
/** Sections shorter than this are merged with the next one. */
export const MIN_SECTION_CHARS = 200;

interface RawSection {
  headingPath: string[];
  lines: string[];
}

/**
 * Cuts a note into sections at its headings (frontmatter left out, headings inside code blocks
 * ignored), cuts long ones again at about `MAX_SECTION_CHARS` on paragraph boundaries, and merges
 * tiny ones with the next. Each text starts with the note's title and the heading path, so it
 * stands alone when embedded.
 */
export function noteSections(path: string, text: string): NoteSection[] {
  const title = (path.split("/").pop() ?? path).replace(/\.md$/i, "");
  const pieces = mergeTiny(splitLong(splitAtHeadings(withoutFrontmatter(text))));
  if (pieces.length === 0) pieces.push({ headingPath: [], lines: [] });
  return pieces.map((piece, index) => {
    const heading = piece.headingPath.join(" > ");
    const body = piece.lines.join("\n").trim();
    const sectionText = [title, heading, body].filter((part) => part.length > 0).join("\n\n");
    return { key: `${path}#${index}`, heading, text: sectionText, hash: contentHash(sectionText) };
  });
}

function withoutFrontmatter(text: string): string {
  const match = text.startsWith("---") ? FRONTMATTER.exec(text) : null;
  return match ? text.slice(match[0].length) : text;
}

function splitAtHeadings(body: string): RawSection[] {
  const sections: RawSection[] = [];
  const path: Array<{ level: number; heading: string }> = [];
  let current: RawSection = { headingPath: [], lines: [] };
  let fence: OpenFence | null = null;
  for (const rawLine of body.split(/\r?\n/)) {
    // A PDF's page break (documentText.ts) is a paragraph break to the embeddings.
    const line = rawLine === PAGE_BREAK ? "" : rawLine;
    const followed = followFence(line, fence);
    fence = followed.open;
    const heading = followed.role === "text" && line.startsWith("#") ? HEADING.exec(line) : null;
    if (!heading) {
      current.lines.push(line);
      continue;
    }
    sections.push(current);
    const level = heading[1]?.length ?? 1;
    while (path.length > 0 && (path[path.length - 1]?.level ?? 0) >= level) path.pop();
    path.push({ level, heading: heading[2] ?? "" });
    current = { headingPath: path.map((entry) => entry.heading), lines: [] };
  }
  sections.push(current);
  // A heading with nothing under it still names what follows it: only an empty lead-in is dropped.
  return sections.filter((section, index) => index > 0 || section.lines.some((line) => line.trim().length > 0));
}

/** Long sections cut at blank lines (a paragraph longer than the limit at line ends, then anywhere). */
function splitLong(sections: RawSection[]): RawSection[] {
  const out: RawSection[] = [];
  for (const section of sections) {
    if (charCount(section.lines) <= MAX_SECTION_CHARS) {
      out.push(section);
      continue;
    }
    let lines: string[] = [];
    let size = 0;
    const flush = () => {
      if (lines.some((line) => line.trim().length > 0)) out.push({ headingPath: section.headingPath, lines });
      lines = [];
      size = 0;
    };
    for (const paragraph of paragraphs(section.lines)) {
      for (const piece of fitting(paragraph)) {
        const pieceSize = charCount(piece);
        if (size > 0 && size + pieceSize > MAX_SECTION_CHARS) flush();
        lines.push(...piece);
        size += pieceSize;
      }
    }
    flush();
  }
  return out;
}

/** The lines in paragraphs, each keeping its trailing blank line. */
function paragraphs(lines: string[]): string[][] {
  const out: string[][] = [[]];
  for (const line of lines) {
    out[out.length - 1]?.push(line);
    if (line.trim() === "") out.push([]);
  }
  return out.filter((paragraph) => paragraph.length > 0);
}

/** A paragraph as pieces no longer than the limit: whole lines where possible. */
function fitting(paragraph: string[]): string[][] {
  if (charCount(paragraph) <= MAX_SECTION_CHARS) return [paragraph];
  const pieces: string[][] = [];
  for (const line of paragraph) {
    for (let start = 0; start < Math.max(1, line.length); start += MAX_SECTION_CHARS) pieces.push([line.slice(start, start + MAX_SECTION_CHARS)]);
  }
  return pieces;
}

function mergeTiny(sections: RawSection[]): RawSection[] {
  const out: RawSection[] = [];
  let pending: RawSection | undefined;
  for (const section of sections) {
    const merged: RawSection = pending ? { headingPath: pending.headingPath, lines: [...pending.lines, ...headingLine(section), ...section.lines] } : section;
    pending = undefined;
    if (charCount(merged.lines) < MIN_SECTION_CHARS) pending = merged;
    else out.push(merged);
  }
  if (pending) {
    const last = out[out.length - 1];
    const joined = last ? charCount(last.lines) + charCount(pending.lines) <= MAX_SECTION_CHARS : false;
    if (last && joined) out[out.length - 1] = { headingPath: last.headingPath, lines: [...last.lines, ...headingLine(pending), ...pending.lines] };
    else out.push(pending);
  }
  return out;
}

/** A merged section's own heading, kept as a line of the merged text. */
function headingLine(section: RawSection): string[] {
  const heading = section.headingPath[section.headingPath.length - 1];
  return heading === undefined ? [] : [`${"#".repeat(section.headingPath.length)} ${heading}`];
}

function charCount(lines: string[]): number {
  let count = 0;
  for (const line of lines) count += line.length + 1;
  return count;
}

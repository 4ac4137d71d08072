import { PAGE_BREAK } from "../documents/documentText";
import { cutAtWord } from "../text/cutAtWord";
import { readNoteOutline } from "./noteOutline";
import type { Tokenizer } from "./tokenizer";

/** The part of a note a hit points at. */
export interface Passage {
  /** The heading path of the section, "Methods > Results"; absent for the text before any heading. */
  heading?: string;
  content: string;
  /** The page the passage is on (1-based): 1 for text without page breaks; a PDF's pages are told by them. */
  page: number;
}

export interface PassageQuery {
  /** Query terms (tokenized) and their weights. */
  terms: ReadonlyMap<string, number>;
  /** How telling a term is across the vault (the index's idf). */
  idf: (term: string) => number;
  tokenizer: Tokenizer;
  /** Longest passage, in characters. */
  maxChars: number;
}

interface Section {
  heading?: string;
  /** 1-based; counts the page-break lines before the section. */
  page: number;
  /** Lines of the section, its heading line excluded. */
  lines: string[];
  headingText: string;
}

/**
 * The section of a note that best matches the query: the note is cut at its headings, each section
 * (its heading included) is scored with BM25 against the query's terms, and the best one wins,
 * the earliest on a tie. When no section holds a query term (the note matched by title or path),
 * the start of the note is the passage. A section longer than `maxChars` is cut to its best
 * paragraphs, with "…" where text was left out.
 */
export function bestPassage(text: string, query: PassageQuery): Passage {
  const sections = splitSections(text).filter((section) => section.lines.some((line) => line.trim().length > 0));
  if (sections.length === 0) return { content: "", page: 1 };
  const termsOf = sections.map((section) => query.tokenizer.tokenize(`${section.headingText}\n${section.lines.join("\n")}`));
  const scores = scoreUnits(termsOf, query);
  let best = 0;
  scores.forEach((score, index) => {
    if (score > (scores[best] ?? 0)) best = index;
  });
  const section = sections[best] as Section;
  return {
    ...(section.heading ? { heading: section.heading } : {}),
    content: fitToLength(section.lines, query),
    page: section.page,
  };
}

/**
 * Sections at every heading, each with its heading path ("A > B > C"), and at every page break
 * (a line of one form feed: a PDF's pages, see documentText.ts), each with its page.
 */
function splitSections(text: string): Section[] {
  const outline = readNoteOutline(text);
  const sections: Section[] = [];
  const path: { level: number; text: string }[] = [];
  let current: Section = { lines: [], headingText: "", page: 1 };
  let nextHeading = 0;
  for (let index = outline.bodyStartLine; index < outline.lines.length; index++) {
    if (outline.lines[index] === PAGE_BREAK) {
      sections.push(current);
      current = { ...(current.heading ? { heading: current.heading } : {}), lines: [], headingText: current.headingText, page: current.page + 1 };
      continue;
    }
    const heading = outline.headings[nextHeading];
    if (heading && heading.line === index) {
      nextHeading++;
      sections.push(current);
      while (path.length > 0 && (path[path.length - 1]?.level ?? 0) >= heading.level) path.pop();
      path.push({ level: heading.level, text: heading.heading });
      current = { heading: path.map((part) => part.text).join(" > "), lines: [], headingText: heading.heading, page: current.page };
      continue;
    }
    current.lines.push(outline.lines[index] ?? "");
  }
  sections.push(current);
  return sections;
}

/** BM25 of each unit (a section, a paragraph) for the query, lengths against the units' average. */
function scoreUnits(units: readonly string[][], query: PassageQuery): number[] {
  const k1 = 1.2;
  const b = 0.75;
  const average = units.reduce((sum, terms) => sum + terms.length, 0) / Math.max(1, units.length) || 1;
  return units.map((terms) => {
    const counts = new Map<string, number>();
    for (const term of terms) if (query.terms.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
    let score = 0;
    for (const [term, count] of counts) {
      const norm = k1 * (1 - b + (b * terms.length) / average);
      score += (query.terms.get(term) ?? 0) * query.idf(term) * ((count * (k1 + 1)) / (count + norm));
    }
    return score;
  });
}

/** The section's text, or its best run of paragraphs when it is longer than `maxChars`. */
function fitToLength(lines: readonly string[], query: PassageQuery): string {
  const whole = lines.join("\n").trim();
  if (whole.length <= query.maxChars) return whole;
  const paragraphs = whole.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean);
  const scores = scoreUnits(paragraphs.map((paragraph) => query.tokenizer.tokenize(paragraph)), query);
  let start = 0;
  scores.forEach((score, index) => {
    if (score > (scores[start] ?? 0)) start = index;
  });
  const kept: string[] = [];
  let length = 0;
  for (let index = start; index < paragraphs.length; index++) {
    const paragraph = paragraphs[index] ?? "";
    if (length + paragraph.length > query.maxChars) {
      if (kept.length === 0) kept.push(cutAtWord(paragraph, query.maxChars));
      break;
    }
    kept.push(paragraph);
    length += paragraph.length + 2;
  }
  const cutBefore = start > 0;
  const cutAfter = start + kept.length < paragraphs.length || (kept.length === 1 && kept[0] !== paragraphs[start]);
  return `${cutBefore ? "…\n\n" : ""}${kept.join("\n\n")}${cutAfter ? " …" : ""}`;
}


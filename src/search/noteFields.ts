import { readNoteOutline } from "./noteOutline";
import type { Term, Tokenizer } from "./tokenizer";

/** The fields a note is indexed under, in the order the index packs them (body first). */
export const FIELD_NAMES = ["body", "title", "headings", "aliases", "tags", "path"] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
export const FIELD_COUNT = FIELD_NAMES.length;

/** A note's terms, one list per field in `FIELD_NAMES` order. */
export type FieldTerms = readonly (readonly Term[])[];

/** "Projects/Plan.md" gives "Plan"; the title a note is cited by. */
export function noteTitle(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.toLowerCase().endsWith(".md") ? name.slice(0, -3) : name;
}

/** A title as a query or a link is compared with it: NFC, lower case, spaces collapsed. */
export function comparableTitle(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * A note's terms handed out one at a time with their field's position in `FIELD_NAMES`, for
 * `InvertedIndex.add`: a huge note's terms are counted as they come instead of held in lists.
 */
export type FieldTermSource = (visit: (field: number, term: Term) => void) => void;

/**
 * A note's text cut into fields: title (the file name), aliases, headings and tags as Obsidian
 * reads them, the folder path, and the body (everything else, frontmatter values included).
 *
 * A first-level heading that begins with the file name is the note's title written out in full
 * (file names are often cut short): it becomes the title field instead of a heading, so the
 * title is not counted twice.
 */
export function extractFieldTerms(path: string, text: string, tokenizer: Tokenizer): FieldTerms {
  const fields: Term[][] = FIELD_NAMES.map(() => []);
  fieldTermSource(path, text, tokenizer)((field, term) => fields[field]?.push(term));
  return fields;
}

/**
 * As `extractFieldTerms`, handed out term by term: the short fields first, then the body line by
 * line as it is tokenized (no list of the body's terms is made).
 */
export function fieldTermSource(path: string, text: string, tokenizer: Tokenizer): FieldTermSource {
  return (visit) => {
    const metadata = readNoteOutline(text);
    const lines = metadata.lines;
    const headingLines = new Set(metadata.headings.map((heading) => heading.line));

    let title = tokenizer.terms(noteTitle(path));
    const headings: Term[] = [];
    let titleHeadingSeen = false;
    for (const heading of metadata.headings) {
      const terms = tokenizer.terms(heading.heading);
      if (!titleHeadingSeen && heading.level === 1 && startsWith(terms, title)) {
        titleHeadingSeen = true;
        title = terms;
        continue;
      }
      headings.push(...terms);
    }
    const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    const short: Array<[FieldName, readonly Term[]]> = [
      ["title", title],
      ["headings", headings],
      ["aliases", metadata.aliases.flatMap((alias) => tokenizer.terms(alias))],
      ["tags", metadata.tags.flatMap((tag) => tokenizer.terms(tag))],
      ["path", tokenizer.terms(folder)],
    ];
    for (const [name, terms] of short) {
      const field = FIELD_NAMES.indexOf(name);
      for (const term of terms) visit(field, term);
    }

    // The body's terms, line by line (joining the lines first would copy the whole note once more).
    const collect = (term: Term) => visit(BODY, term);
    for (let index = metadata.bodyStartLine; index < lines.length; index++) {
      if (!headingLines.has(index)) tokenizer.forEachTerm(lines[index] ?? "", collect);
    }
    for (const [key, value] of Object.entries(metadata.frontmatter)) {
      if (OBSIDIAN_KEYS.has(key.toLowerCase())) continue;
      for (const text of plainValues(value)) tokenizer.forEachTerm(text, collect);
    }
  };
}

const BODY = FIELD_NAMES.indexOf("body");

/** Frontmatter keys that have their own field or are not the note's words. */
const OBSIDIAN_KEYS = new Set(["tags", "tag", "aliases", "alias", "cssclasses", "cssclass", "publish", "position"]);

function plainValues(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return [];
}

function startsWith(terms: readonly Term[], prefix: readonly Term[]): boolean {
  if (prefix.length === 0 || prefix.length > terms.length) return false;
  return prefix.every((term, index) => terms[index]?.text === term.text);
}

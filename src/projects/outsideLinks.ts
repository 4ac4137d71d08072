import { linksWrittenIn } from "../vault/markdownMetadata";
import { OUTSIDE_PROJECT_NOTE as OUTSIDE_NOTE, type LinkInfo, type NoteMetadata } from "../vault/VaultPort";

/** The link that stands for one to a note outside the project. */
export const OUTSIDE_NOTE_LINK = `[[${OUTSIDE_NOTE}]]`;

/** Whether a link written in a note points to a note outside the project (a link to no note does not). */
export type OutsideTest = (link: LinkInfo, sourcePath: string) => boolean;

/**
 * The text of a note in the project with every link to a note outside it written as
 * `[[a note outside the project]]`: the link's place stays, the other note's name and path go.
 * Links inside code and in the properties count too: what the model reads is the whole text.
 */
export function maskOutsideLinks(text: string, sourcePath: string, isOutside: OutsideTest): string {
  if (!text.includes("[")) return text;
  const outside = new Set(linksWrittenIn(text).filter((link) => isOutside(link, sourcePath)).map((link) => link.original));
  let masked = text;
  // Longest first, so a link that contains another ("[[A|x]]" and "[[A]]" never overlap, but "[t](A.md)" may hold "[[A]]") goes whole.
  for (const original of [...outside].sort((a, b) => b.length - a.length)) masked = masked.split(original).join(OUTSIDE_NOTE_LINK);
  return masked;
}

/** A note's metadata as the project shows it: links out of the project and their text in its properties masked. */
export function maskOutsideMetadata(metadata: NoteMetadata, sourcePath: string, isOutside: OutsideTest): NoteMetadata {
  return {
    ...metadata,
    frontmatter: maskValue(metadata.frontmatter, sourcePath, isOutside) as Record<string, unknown>,
    links: metadata.links.map((link) => (isOutside(link, sourcePath) ? { link: OUTSIDE_NOTE, original: OUTSIDE_NOTE_LINK, embed: link.embed } : link)),
  };
}

function maskValue(value: unknown, sourcePath: string, isOutside: OutsideTest): unknown {
  if (typeof value === "string") return maskOutsideLinks(value, sourcePath, isOutside);
  if (Array.isArray(value)) return value.map((item) => maskValue(item, sourcePath, isOutside));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskValue(item, sourcePath, isOutside)]));
  }
  return value;
}

import type { HeadingInfo } from "../../vault/VaultPort";

/** File types readNote returns as text; anything else (images, PDFs) would be noise to the model. */
const TEXT_EXTENSIONS = new Set(["md", "markdown", "txt", "canvas", "base", "csv", "json", "yaml", "yml"]);

export function isTextFile(path: string): boolean {
  const dot = path.lastIndexOf(".");
  return dot !== -1 && TEXT_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

/**
 * Splits text into chunks of at most `maxChars`, cutting after a line end where one is near
 * (a single overlong line is cut where it must be). Joining the chunks gives the text back.
 */
export function splitIntoChunks(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + maxChars, text.length);
    if (end < text.length) {
      const lineEnd = text.lastIndexOf("\n", end - 1);
      if (lineEnd >= start + maxChars / 2) end = lineEnd + 1;
    }
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/** The lines of the section under `heading` (matched case-insensitively), or null when there is none. */
export function sectionUnder(text: string, headings: readonly HeadingInfo[], heading: string): string | null {
  const wanted = heading.trim().toLowerCase();
  const index = headings.findIndex((h) => h.heading.trim().toLowerCase() === wanted);
  const found = headings[index];
  if (!found) return null;
  const next = headings.slice(index + 1).find((h) => h.level <= found.level);
  const lines = text.split("\n");
  return lines.slice(found.line, next ? next.line : lines.length).join("\n");
}

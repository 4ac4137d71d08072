/** Where `needle` occurs in `text`: start offsets, overlapping occurrences included. */
export function findOccurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) found.push(index);
  return found;
}

/** The 1-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line++;
  return line;
}

/**
 * Lines where the first non-blank line of `needle` appears when whitespace at the line ends and
 * letter case are ignored: hints for a model whose `oldText` was close but not exact.
 */
export function nearMatchLines(text: string, needle: string, limit = 5): number[] {
  const firstLine = needle
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .find((line) => line.length > 0);
  if (!firstLine) return [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (lines.length < limit && line.trim().toLowerCase().includes(firstLine)) lines.push(index + 1);
  });
  return lines;
}

import { NoteLookup } from "../tools/notes/noteLookup";
import { baseName, hasExtension, pathKey, quotePath, toVaultPath } from "../vault/vaultPath";

/**
 * The note a name typed on the command line means, among `notes` (vault paths as listed): its
 * path compared by `pathKey` (Unicode form, letter case and no-break spaces aside), ".md"
 * optional; failing that, the notes whose path ends with it (a file name without its folder).
 * A name spelled exactly as a note is on disk wins over its look-alikes. Throws an error that
 * says what was found: nothing (with notes of like names), or several notes (each named), so the
 * user can type the one they mean.
 */
export function noteByName(given: string, notes: readonly string[], configDir: string): string {
  const path = toVaultPath(given, configDir);
  const spellings = hasExtension(path) && path.toLowerCase().endsWith(".md") ? [path] : [path, `${path}.md`];
  const keys = spellings.map(pathKey);
  const exact = notes.filter((note) => keys.includes(pathKey(note)));
  const spelledSo = exact.find((note) => spellings.includes(note));
  if (spelledSo !== undefined) return spelledSo;
  const matches = exact.length > 0 ? exact : notes.filter((note) => keys.some((key) => pathKey(note).endsWith(`/${key}`)));
  if (matches.length === 1) return matches[0] ?? path;
  if (matches.length > 1) {
    const lookAlikes = new Set(matches.map((note) => pathKey(note))).size < matches.length;
    throw new Error(
      `${quotePath(given)} matches ${matches.length} notes: ${matches.map(quotePath).join(", ")}` +
        `${lookAlikes ? " (names that differ only in letter case or Unicode form)" : ""}; give the one you mean as it is written there`,
    );
  }
  const suggestions = new NoteLookup(notes, configDir).suggest(baseName(path));
  throw new Error(
    `no note matches ${quotePath(given)} (missing, excluded from the index, or not a note, PDF or canvas)` +
      (suggestions.length > 0 ? `; notes with like names: ${suggestions.map(quotePath).join(", ")}` : ""),
  );
}

import type { NoteMetadata, VaultPort } from "../../vault/VaultPort";

/**
 * Every note's metadata, read a few at a time; stops early when `signal` aborts. `notes` are the
 * notes to visit when the caller knows them already (the note lookup does); else the vault lists them.
 */
export async function scanNoteMetadata(
  vault: VaultPort,
  signal: AbortSignal,
  visit: (path: string, metadata: NoteMetadata) => void,
  known?: Iterable<string>,
): Promise<number> {
  const notes = known ? [...known].filter((path) => path.toLowerCase().endsWith(".md")) : await vault.listNotes();
  const batchSize = 16;
  for (let start = 0; start < notes.length; start += batchSize) {
    signal.throwIfAborted();
    const batch = notes.slice(start, start + batchSize);
    const metadata = await Promise.all(batch.map((path) => vault.getMetadata(path)));
    batch.forEach((path, index) => {
      const found = metadata[index];
      if (found) visit(path, found);
    });
  }
  return notes.length;
}

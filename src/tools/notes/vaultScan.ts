import type { NoteMetadata, VaultPort } from "../../vault/VaultPort";

/** Every note's metadata, read a few at a time; stops early when `signal` aborts. */
export async function scanNoteMetadata(
  vault: VaultPort,
  signal: AbortSignal,
  visit: (path: string, metadata: NoteMetadata) => void,
): Promise<number> {
  const notes = await vault.listNotes();
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

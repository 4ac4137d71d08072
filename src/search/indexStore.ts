import { errorMessage } from "../errorMessage";
import type { DataStore } from "../vault/VaultPort";
import { decodeIndexFile, encodeIndexFile, IndexFileError } from "./indexFile";
import { InvertedIndex } from "./InvertedIndex";
import type { TimeSlicer } from "./TimeSlicer";

/** The index file's name in the plugin's data folder; later parts are "search-index.2.txt" and on. */
export const INDEX_FILE_NAME = "search-index.txt";

export function indexPartName(part: number): string {
  return part === 0 ? INDEX_FILE_NAME : `search-index.${part + 1}.txt`;
}

export type LoadOutcome =
  | { index: InvertedIndex; loaded: true; characters: number }
  /** Nothing usable was stored: `reason` says why (absent, another version, damaged). */
  | { index: InvertedIndex; loaded: false; reason: string };

/**
 * The stored index, or an empty one with the reason when there is none or it cannot be used.
 * Never throws for a bad file: the caller rebuilds, and the vault is the source of truth anyway.
 * A store that cannot be read at all is reported the same way. Only an abort is thrown.
 */
export async function loadIndex(store: DataStore, slicer: TimeSlicer, signal?: AbortSignal): Promise<LoadOutcome> {
  try {
    let characters = 0;
    const snapshot = await decodeIndexFile(async (part) => {
      const text = await store.read(indexPartName(part));
      characters += text?.length ?? 0;
      return text;
    }, slicer);
    return { index: await InvertedIndex.restore(snapshot, slicer), loaded: true, characters };
  } catch (error) {
    if (signal?.aborted) throw error;
    // Whatever is wrong with a stored index, the remedy is the same: build again from the notes.
    const reason = error instanceof IndexFileError ? error.message : `the index could not be read (${errorMessage(error)})`;
    return { index: new InvertedIndex(), loaded: false, reason };
  }
}

/**
 * Writes the index: compacts it (the file holds only the packed form), encodes a snapshot and
 * writes its parts, the header's part last, so a save cut short leaves a header that finds parts
 * of another generation and is rebuilt rather than misread. Parts left over from a larger index
 * are removed. No other change may run meanwhile.
 */
export async function saveIndex(store: DataStore, index: InvertedIndex, slicer: TimeSlicer): Promise<{ characters: number; parts: number }> {
  if (index.pendingWork > 0) await index.compact(slicer);
  const parts = await encodeIndexFile(index.snapshot(), slicer);
  for (let part = parts.length - 1; part >= 0; part--) await slicer.wait(store.write(indexPartName(part), parts[part] ?? ""));
  for (let part = parts.length; (await slicer.wait(store.read(indexPartName(part)))) !== null; part++) {
    await slicer.wait(store.remove(indexPartName(part)));
  }
  return { characters: parts.reduce((sum, text) => sum + text.length, 0), parts: parts.length };
}



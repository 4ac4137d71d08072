import type { DataStore } from "../vault/VaultPort";
import { decodeIndexFile, encodeIndexFile, IndexFileError } from "./indexFile";
import { InvertedIndex } from "./InvertedIndex";
import type { TimeSlicer } from "./TimeSlicer";

/** The index file's name in the plugin's data folder. */
export const INDEX_FILE_NAME = "search-index.txt";

export type LoadOutcome =
  | { index: InvertedIndex; loaded: true }
  /** Nothing usable was stored: `reason` says why (absent, another version, damaged). */
  | { index: InvertedIndex; loaded: false; reason: string };

/**
 * The stored index, or an empty one with the reason when there is none or it cannot be used.
 * Never throws for a bad file: the caller rebuilds, and the vault is the source of truth anyway.
 * A store that cannot be read at all is reported the same way.
 */
export async function loadIndex(store: DataStore, slicer: TimeSlicer, signal?: AbortSignal): Promise<LoadOutcome> {
  let text: string | null;
  try {
    text = await slicer.wait(store.read(INDEX_FILE_NAME));
  } catch (error) {
    return { index: new InvertedIndex(), loaded: false, reason: `the index file could not be read (${message(error)})` };
  }
  if (text === null) return { index: new InvertedIndex(), loaded: false, reason: "no index was stored yet" };
  try {
    return { index: await InvertedIndex.restore(await decodeIndexFile(text, slicer), slicer), loaded: true };
  } catch (error) {
    if (signal?.aborted) throw error;
    // Whatever is wrong with a stored file, the remedy is the same: build again from the notes.
    const reason = error instanceof IndexFileError ? error.message : `the index file is damaged (${message(error)})`;
    return { index: new InvertedIndex(), loaded: false, reason };
  }
}

/**
 * Writes the index: compacts it (the file holds only the packed form), then encodes and writes a
 * snapshot. Only the compaction must not overlap other changes; `afterSnapshot` is called once
 * the snapshot is taken, so the caller may let changes and queries go on while it is written.
 */
export async function saveIndex(
  store: DataStore,
  index: InvertedIndex,
  slicer: TimeSlicer,
  afterSnapshot: () => void = () => undefined,
): Promise<{ bytes: number }> {
  let snapshot;
  try {
    if (index.pendingWork > 0) await index.compact(slicer);
    snapshot = index.snapshot();
  } finally {
    afterSnapshot();
  }
  const text = await encodeIndexFile(snapshot, slicer);
  await slicer.wait(store.write(INDEX_FILE_NAME, text));
  return { bytes: text.length };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

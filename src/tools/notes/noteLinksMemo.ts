import type { LinkInfo, VaultPort } from "../../vault/VaultPort";

/**
 * Each note's links, remembered per vault with the size and modification time they were read at,
 * so getBacklinks reads again only the notes that changed since its last call: on a folder of
 * 50,000 notes a stat of each is several times cheaper than reading and parsing each.
 */
interface Remembered {
  mtime: number;
  size: number;
  links: readonly LinkInfo[];
}

const NO_LINKS: readonly LinkInfo[] = Object.freeze([]);
const memos = new WeakMap<VaultPort, Map<string, Remembered>>();
const BATCH = 64;

/** Calls `visit` with the links of every note in `notes` that exists; stops when `signal` aborts. */
export async function scanNoteLinks(
  vault: VaultPort,
  notes: readonly string[],
  signal: AbortSignal,
  visit: (path: string, links: readonly LinkInfo[]) => void,
): Promise<void> {
  let memo = memos.get(vault);
  if (!memo) memos.set(vault, (memo = new Map<string, Remembered>()));
  const seen = new Set<string>();
  for (let start = 0; start < notes.length; start += BATCH) {
    signal.throwIfAborted();
    const batch = notes.slice(start, start + BATCH);
    const found = await Promise.all(batch.map((path) => linksOf(vault, memo, path)));
    batch.forEach((path, index) => {
      const links = found[index];
      if (!links) return;
      seen.add(path);
      visit(path, links);
    });
  }
  // Notes gone since the last call are forgotten.
  for (const path of memo.keys()) if (!seen.has(path)) memo.delete(path);
}

async function linksOf(vault: VaultPort, memo: Map<string, Remembered>, path: string): Promise<readonly LinkInfo[] | null> {
  const stat = await vault.stat(path);
  if (!stat) return null;
  const known = memo.get(path);
  if (known && known.mtime === stat.mtime && known.size === stat.size) return known.links;
  const metadata = await vault.getMetadata(path);
  if (!metadata) return null;
  const links = metadata.links.length > 0 ? metadata.links : NO_LINKS;
  memo.set(path, { mtime: stat.mtime, size: stat.size, links });
  return links;
}

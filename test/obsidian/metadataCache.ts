import type * as Obsidian from "obsidian";
import { Events } from "./events";
import type { TAbstractFile, TFile, Vault } from "./vault";

/**
 * Obsidian's metadata cache, filled by the test: the double parses nothing, so a test states the
 * `CachedMetadata` that Obsidian would have produced for a note (`setFileCache`).
 */
export class MetadataCache extends Events implements Pick<Obsidian.MetadataCache, "getCache" | "resolvedLinks" | "unresolvedLinks"> {
  resolvedLinks: Record<string, Record<string, number>> = {};
  unresolvedLinks: Record<string, Record<string, number>> = {};
  private readonly caches = new Map<string, Obsidian.CachedMetadata>();

  constructor(private readonly vault: Vault) {
    super();
    vault.on("delete", (file) => this.caches.delete((file as TAbstractFile).path));
    vault.on("rename", (file, oldPath) => {
      const cache = this.caches.get(oldPath as string);
      this.caches.delete(oldPath as string);
      if (cache) this.caches.set((file as TAbstractFile).path, cache);
    });
  }

  getFileCache(file: TFile): Obsidian.CachedMetadata | null {
    return this.caches.get(file.path) ?? null;
  }

  getCache(path: string): Obsidian.CachedMetadata | null {
    return this.caches.get(path) ?? null;
  }

  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    void sourcePath;
    const target = linkpath.split("#")[0] ?? linkpath;
    const exact = this.vault.getFileByPath(target) ?? this.vault.getFileByPath(`${target}.md`);
    if (exact) return exact;
    const name = target.toLowerCase();
    return this.vault.getFiles().find((file) => file.basename.toLowerCase() === name || file.name.toLowerCase() === name) ?? null;
  }

  /** Sets what Obsidian would have parsed for `path` and announces it (double only). */
  setFileCache(path: string, cache: Obsidian.CachedMetadata): void {
    this.caches.set(path, cache);
    const file = this.vault.getFileByPath(path);
    if (file) this.trigger("changed", file, "", cache);
  }
}

/** (Its methods take the double's files, which are not Obsidian's classes, so no `implements` here.) */
export class FileManager {
  constructor(private readonly vault: Vault) {}

  /** Obsidian trashes per the user's "Deleted files" setting; the double deletes. */
  trashFile(file: TAbstractFile): Promise<void> {
    return this.vault.trash(file);
  }

  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    await this.vault.rename(file, newPath);
  }
}

import { FsVault } from "../../src/vault/FsVault";
import type { FileStat, NoteMetadata, VaultEvent, VaultPort } from "../../src/vault/VaultPort";

/**
 * For tests: a real folder (`FsVault`) that also counts which notes were read, and can announce
 * events the way Obsidian does for changes made outside the port (a rename in the file explorer).
 */
export class WatchedVault implements VaultPort {
  readonly inner: FsVault;
  readonly reads: string[] = [];
  private readonly listeners = new Set<(event: VaultEvent) => void>();

  constructor(root: string) {
    this.inner = new FsVault(root);
  }

  get configDir(): string {
    return this.inner.configDir;
  }

  listNotes(): Promise<string[]> {
    return this.inner.listNotes();
  }

  listFiles(): Promise<string[]> {
    return this.inner.listFiles();
  }

  stat(path: string): Promise<FileStat | null> {
    return this.inner.stat(path);
  }

  read(path: string): Promise<string> {
    this.reads.push(path);
    return this.inner.read(path);
  }

  readBinary(path: string): Promise<Uint8Array> {
    this.reads.push(path);
    return this.inner.readBinary(path);
  }

  create(path: string, content: string): Promise<void> {
    return this.inner.create(path, content);
  }

  process(path: string, transform: (current: string) => string): Promise<string> {
    return this.inner.process(path, transform);
  }

  rename(path: string, newPath: string): Promise<void> {
    return this.inner.rename(path, newPath);
  }

  trash(path: string): Promise<void> {
    return this.inner.trash(path);
  }

  getMetadata(path: string): Promise<NoteMetadata | null> {
    return this.inner.getMetadata(path);
  }

  onChange(listener: (event: VaultEvent) => void): () => void {
    const unsubscribe = this.inner.onChange(listener);
    this.listeners.add(listener);
    return () => {
      unsubscribe();
      this.listeners.delete(listener);
    };
  }

  /** Announces an event as Obsidian would after a change made outside this port. */
  emit(event: VaultEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

import type * as Obsidian from "obsidian";

function parentPathOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "/" : path.slice(0, slash);
}

const byteLength = (text: string): number => new TextEncoder().encode(text).length;

/** Files and folders of the whole vault folder, config folder included (what `app.vault.adapter` sees). */
export class InMemoryAdapter
  implements
    Pick<Obsidian.DataAdapter, "getName" | "exists" | "stat" | "list" | "read" | "readBinary" | "write" | "append" | "mkdir" | "remove" | "rmdir" | "rename">
{
  /** `bytes` is kept for files written as binary: `text` is then what Obsidian's lenient UTF-8 decoding gives. */
  private readonly files = new Map<string, { text: string; bytes?: Uint8Array; stat: Obsidian.Stat }>();
  private readonly folders = new Set<string>();

  constructor(
    private readonly vaultName: string,
    private readonly now: () => number,
  ) {}

  getName(): string {
    return this.vaultName;
  }

  exists(normalizedPath: string): Promise<boolean> {
    return Promise.resolve(this.files.has(normalizedPath) || this.folders.has(normalizedPath));
  }

  stat(normalizedPath: string): Promise<Obsidian.Stat | null> {
    const file = this.files.get(normalizedPath);
    if (file) return Promise.resolve({ ...file.stat });
    if (this.folders.has(normalizedPath)) return Promise.resolve({ type: "folder", ctime: 0, mtime: 0, size: 0 });
    return Promise.resolve(null);
  }

  list(normalizedPath: string): Promise<Obsidian.ListedFiles> {
    const prefix = normalizedPath === "/" || normalizedPath === "" ? "" : `${normalizedPath}/`;
    const direct = (path: string) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/");
    return Promise.resolve({ files: [...this.files.keys()].filter(direct), folders: [...this.folders].filter(direct) });
  }

  async read(normalizedPath: string): Promise<string> {
    return this.readNow(normalizedPath);
  }

  /** Synchronous read, for the vault's `process`. */
  readNow(normalizedPath: string): string {
    const file = this.files.get(normalizedPath);
    if (!file) throw new Error(`ENOENT: no such file or directory, open '${normalizedPath}'`);
    return file.text;
  }

  /** Synchronous write, for the vault (its `process` must not yield between read and write). */
  writeNow(normalizedPath: string, data: string, times?: { ctime: number; mtime: number }): Obsidian.Stat {
    const parent = parentPathOf(normalizedPath);
    if (parent !== "/" && !this.folders.has(parent)) throw new Error(`ENOENT: no such file or directory, open '${normalizedPath}'`);
    if (this.folders.has(normalizedPath)) throw new Error(`EISDIR: illegal operation on a directory, open '${normalizedPath}'`);
    const time = times?.mtime ?? this.now();
    const ctime = times?.ctime ?? this.files.get(normalizedPath)?.stat.ctime ?? time;
    const stat: Obsidian.Stat = { type: "file", ctime, mtime: time, size: byteLength(data) };
    this.files.set(normalizedPath, { text: data, stat });
    return { ...stat };
  }

  readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    const file = this.files.get(normalizedPath);
    if (!file) return Promise.reject(new Error(`ENOENT: no such file or directory, open '${normalizedPath}'`));
    const bytes = file.bytes ?? new TextEncoder().encode(file.text);
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }

  /** Synchronous binary write, for the vault's `createBinary` (a note that is not UTF-8, say). */
  writeBinaryNow(normalizedPath: string, data: ArrayBuffer, times?: { ctime: number; mtime: number }): Obsidian.Stat {
    const bytes = new Uint8Array(data.slice(0));
    const stat = this.writeNow(normalizedPath, new TextDecoder().decode(bytes), times);
    this.files.set(normalizedPath, { text: new TextDecoder().decode(bytes), bytes, stat: { ...stat, size: bytes.byteLength } });
    return { ...stat, size: bytes.byteLength };
  }

  async write(normalizedPath: string, data: string): Promise<void> {
    this.writeNow(normalizedPath, data);
  }

  async append(normalizedPath: string, data: string): Promise<void> {
    const current = this.files.get(normalizedPath)?.text ?? "";
    await this.write(normalizedPath, current + data);
  }

  /** Creates the folder and any missing parents, as Obsidian's adapters do. */
  mkdir(normalizedPath: string): Promise<void> {
    const segments = normalizedPath.split("/");
    for (let i = 1; i <= segments.length; i++) this.folders.add(segments.slice(0, i).join("/"));
    return Promise.resolve();
  }

  remove(normalizedPath: string): Promise<void> {
    if (!this.files.delete(normalizedPath)) return Promise.reject(new Error(`ENOENT: no such file or directory, unlink '${normalizedPath}'`));
    return Promise.resolve();
  }

  rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    const inside = (path: string) => path.startsWith(`${normalizedPath}/`);
    const hasContent = [...this.files.keys()].some(inside) || [...this.folders].some(inside);
    if (hasContent && !recursive) return Promise.reject(new Error(`ENOTEMPTY: directory not empty, rmdir '${normalizedPath}'`));
    for (const path of [...this.files.keys()].filter(inside)) this.files.delete(path);
    for (const path of [...this.folders].filter(inside)) this.folders.delete(path);
    this.folders.delete(normalizedPath);
    return Promise.resolve();
  }

  rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    const moved = (path: string) => (path === normalizedPath ? normalizedNewPath : normalizedNewPath + path.slice(normalizedPath.length));
    const affected = (path: string) => path === normalizedPath || path.startsWith(`${normalizedPath}/`);
    for (const [path, file] of [...this.files].filter(([path]) => affected(path))) {
      this.files.delete(path);
      this.files.set(moved(path), file);
    }
    for (const path of [...this.folders].filter(affected)) {
      this.folders.delete(path);
      this.folders.add(moved(path));
    }
    return Promise.resolve();
  }
}

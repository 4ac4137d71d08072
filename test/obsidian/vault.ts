import type * as Obsidian from "obsidian";
import { Events, type Fits } from "./events";

/**
 * Obsidian's normalizePath: "/" and "\" runs become one "/", leading and trailing slashes go
 * (an empty result is "/", the vault root), non-breaking spaces (U+00A0, U+202F) become spaces,
 * and the text is put in Unicode NFC form.
 */
export function normalizePath(path: string): string {
  let normalized = path.replace(/[\\/]+/g, "/").replace(/^\/+|\/+$/g, "");
  if (normalized === "") normalized = "/";
  return normalized.replace(/[\u00a0\u202f]/g, " ").normalize("NFC");
}
export type NormalizePathFits = Fits<typeof Obsidian.normalizePath, typeof normalizePath>;

function parentPathOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "/" : path.slice(0, slash);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const byteLength = (text: string): number => new TextEncoder().encode(text).length;

export abstract class TAbstractFile implements Pick<Obsidian.TAbstractFile, "path" | "name"> {
  path: string;
  name: string;
  parent: TFolder | null = null;

  constructor(
    readonly vault: Vault,
    path: string,
  ) {
    this.path = path;
    this.name = path === "/" ? "" : nameOf(path);
  }

  /** Moves the entry to `path` (the vault calls this on rename). */
  setPath(path: string): void {
    this.path = path;
    this.name = nameOf(path);
  }
}

export class TFile extends TAbstractFile implements Pick<Obsidian.TFile, "path" | "name" | "basename" | "extension" | "stat"> {
  stat: Obsidian.FileStats = { ctime: 0, mtime: 0, size: 0 };

  get basename(): string {
    const dot = this.name.lastIndexOf(".");
    return dot > 0 ? this.name.slice(0, dot) : this.name;
  }

  get extension(): string {
    const dot = this.name.lastIndexOf(".");
    return dot > 0 ? this.name.slice(dot + 1) : "";
  }
}

export class TFolder extends TAbstractFile implements Pick<Obsidian.TFolder, "path" | "name" | "isRoot"> {
  children: TAbstractFile[] = [];

  isRoot(): boolean {
    return this.path === "/";
  }
}

/** Files and folders of the whole vault folder, config folder included (what `app.vault.adapter` sees). */
export class InMemoryAdapter
  implements Pick<Obsidian.DataAdapter, "getName" | "exists" | "stat" | "list" | "read" | "write" | "append" | "mkdir" | "remove" | "rmdir" | "rename">
{
  private readonly files = new Map<string, { text: string; stat: Obsidian.Stat }>();
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
  writeNow(normalizedPath: string, data: string): Obsidian.Stat {
    const parent = parentPathOf(normalizedPath);
    if (parent !== "/" && !this.folders.has(parent)) throw new Error(`ENOENT: no such file or directory, open '${normalizedPath}'`);
    if (this.folders.has(normalizedPath)) throw new Error(`EISDIR: illegal operation on a directory, open '${normalizedPath}'`);
    const time = this.now();
    const ctime = this.files.get(normalizedPath)?.stat.ctime ?? time;
    const stat: Obsidian.Stat = { type: "file", ctime, mtime: time, size: byteLength(data) };
    this.files.set(normalizedPath, { text: data, stat });
    return { ...stat };
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

export interface VaultOptions {
  configDir?: string;
  name?: string;
  /** The clock for file times (default `Date.now`). */
  now?: () => number;
}

/**
 * An in-memory vault. Like Obsidian's: `create` needs the parent folder to exist, `createFolder`
 * makes missing parents, `process` reads, transforms and writes without yielding (so no other
 * change can slip in between), and every change is announced with Obsidian's event names.
 */
export class Vault
  extends Events
  implements Pick<Obsidian.Vault, "configDir" | "getName">
{
  readonly configDir: string;
  readonly adapter: InMemoryAdapter;
  private readonly entries = new Map<string, TAbstractFile>();
  private readonly root: TFolder;

  constructor(options: VaultOptions = {}) {
    super();
    this.configDir = options.configDir ?? ".obsidian";
    this.adapter = new InMemoryAdapter(options.name ?? "Test vault", options.now ?? Date.now);
    this.root = new TFolder(this, "/");
    this.entries.set("/", this.root);
    void this.adapter.mkdir(this.configDir);
  }

  getName(): string {
    return this.adapter.getName();
  }

  getRoot(): TFolder {
    return this.root;
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.entries.get(path) ?? null;
  }

  getFileByPath(path: string): TFile | null {
    const entry = this.entries.get(path);
    return entry instanceof TFile ? entry : null;
  }

  getFolderByPath(path: string): TFolder | null {
    const entry = this.entries.get(path);
    return entry instanceof TFolder ? entry : null;
  }

  getAllLoadedFiles(): TAbstractFile[] {
    return [...this.entries.values()];
  }

  getFiles(): TFile[] {
    return [...this.entries.values()].filter((entry): entry is TFile => entry instanceof TFile);
  }

  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((file) => file.extension === "md");
  }

  async create(path: string, data: string): Promise<TFile> {
    if (this.entries.has(path)) throw new Error("File already exists.");
    const parent = this.getFolderByPath(parentPathOf(path));
    if (!parent) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    const file = new TFile(this, path);
    file.stat = this.adapter.writeNow(path, data);
    this.attach(file, parent);
    this.trigger("create", file);
    return file;
  }

  async createFolder(path: string): Promise<TFolder> {
    if (this.entries.has(path)) throw new Error("Folder already exists.");
    let parent = this.root;
    const segments = path.split("/");
    for (let i = 1; i <= segments.length; i++) {
      const folderPath = segments.slice(0, i).join("/");
      const existing = this.entries.get(folderPath);
      if (existing instanceof TFile) throw new Error(`A file is in the way at "${folderPath}"`);
      if (existing instanceof TFolder) {
        parent = existing;
        continue;
      }
      await this.adapter.mkdir(folderPath);
      const folder = new TFolder(this, folderPath);
      this.attach(folder, parent);
      this.trigger("create", folder);
      parent = folder;
    }
    return parent;
  }

  read(file: TFile): Promise<string> {
    return this.adapter.read(this.known(file).path);
  }

  cachedRead(file: TFile): Promise<string> {
    return this.read(file);
  }

  async modify(file: TFile, data: string): Promise<void> {
    this.writeKnown(file, data);
  }

  async append(file: TFile, data: string): Promise<void> {
    await this.modify(file, (await this.read(file)) + data);
  }

  // An async function runs synchronously up to its first await, and this one has none: the read,
  // the transform and the write happen in one step, so nothing can change the file in between.
  async process(file: TFile, fn: (data: string) => string): Promise<string> {
    const known = this.known(file);
    const next = fn(this.adapter.readNow(known.path));
    this.writeKnown(known, next);
    return next;
  }

  async delete(file: TAbstractFile): Promise<void> {
    const known = this.known(file);
    if (known instanceof TFolder) {
      for (const child of [...known.children]) await this.delete(child);
      await this.adapter.rmdir(known.path, true);
    } else await this.adapter.remove(known.path);
    this.detach(known);
    this.trigger("delete", known);
  }

  async trash(file: TAbstractFile): Promise<void> {
    await this.delete(file);
  }

  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    const known = this.known(file);
    if (this.entries.has(newPath)) throw new Error("Destination file already exists!");
    const newParent = this.getFolderByPath(parentPathOf(newPath));
    if (!newParent) throw new Error(`ENOENT: no such file or directory, rename '${known.path}' -> '${newPath}'`);
    const oldPath = known.path;
    await this.adapter.rename(oldPath, newPath);
    const moved = [...this.entries.values()].filter((entry) => entry.path === oldPath || entry.path.startsWith(`${oldPath}/`));
    for (const entry of moved) {
      this.entries.delete(entry.path);
      entry.setPath(newPath + entry.path.slice(oldPath.length));
      this.entries.set(entry.path, entry);
    }
    this.detachFromParent(known);
    known.parent = newParent;
    newParent.children.push(known);
    this.trigger("rename", known, oldPath);
  }

  private known<T extends TAbstractFile>(file: T): T {
    if (this.entries.get(file.path) !== file) throw new Error(`"${file.path}" is not in this vault (deleted or moved?)`);
    return file;
  }

  private writeKnown(file: TFile, data: string): void {
    this.known(file).stat = this.adapter.writeNow(file.path, data);
    this.trigger("modify", file);
  }

  private attach(entry: TAbstractFile, parent: TFolder): void {
    entry.parent = parent;
    parent.children.push(entry);
    this.entries.set(entry.path, entry);
  }

  private detach(entry: TAbstractFile): void {
    this.entries.delete(entry.path);
    this.detachFromParent(entry);
  }

  private detachFromParent(entry: TAbstractFile): void {
    if (entry.parent) entry.parent.children = entry.parent.children.filter((child) => child !== entry);
  }
}

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

import type * as Obsidian from "obsidian";
import { InMemoryAdapter } from "./adapter";
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

/**
 * A change the vault made to a note or folder, handed to the mirror (double only): what the
 * browser demo sends to its server so that the folder on disk follows the vault.
 */
export type VaultChange =
  | { type: "write"; path: string; data: string }
  | { type: "folder"; path: string }
  | { type: "delete"; path: string }
  | { type: "trash"; path: string }
  | { type: "rename"; path: string; newPath: string };

/** Applies a change elsewhere (a folder on disk); the vault's promise settles when it has. */
export type VaultMirror = (change: VaultChange) => Promise<void>;

export interface VaultOptions {
  configDir?: string;
  name?: string;
  /** The clock for file times (default `Date.now`). */
  now?: () => number;
  /**
   * Receives every change to notes and folders outside the config folder, in order, after it is
   * made in memory (double only). A failed mirror rejects the vault call that made the change.
   */
  mirror?: VaultMirror;
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
  private readonly mirror: VaultMirror | undefined;
  /** The mirror's queue: changes reach it one at a time, in the order they were made. */
  private mirrored: Promise<void> = Promise.resolve();

  constructor(options: VaultOptions = {}) {
    super();
    this.mirror = options.mirror;
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
    await this.mirrorChange({ type: "write", path, data });
    return file;
  }

  /**
   * Puts a file that already exists elsewhere (on disk) into the vault with its times, making
   * missing parent folders, without announcing or mirroring anything (double only: the demo
   * loads the folder's notes, and the bytes of its PDFs, canvases and images, with it before the
   * plugin starts).
   */
  seedFile(path: string, data: string | ArrayBuffer, times: { ctime: number; mtime: number }): TFile {
    if (this.entries.has(path)) throw new Error(`"${path}" is already in the vault`);
    const parent = this.seedFolder(parentPathOf(path));
    const file = new TFile(this, path);
    file.stat = typeof data === "string" ? this.adapter.writeNow(path, data, times) : this.adapter.writeBinaryNow(path, data, times);
    this.attach(file, parent);
    return file;
  }

  /** A folder (and its missing parents) that already exists elsewhere, unannounced and unmirrored (double only). */
  seedFolder(path: string): TFolder {
    let { parent, missing } = this.folderChain(path);
    for (const folderPath of missing) {
      void this.adapter.mkdir(folderPath);
      parent = this.attachFolder(folderPath, parent);
    }
    return parent;
  }

  /**
   * The deepest folder of `path` that exists, and the paths below it still to make, outermost
   * first; throws when a file stands where a folder must go.
   */
  private folderChain(path: string): { parent: TFolder; missing: string[] } {
    let parent = this.root;
    const missing: string[] = [];
    if (path === "/" || path === "") return { parent, missing };
    const segments = path.split("/");
    for (let i = 1; i <= segments.length; i++) {
      const folderPath = segments.slice(0, i).join("/");
      const existing = this.entries.get(folderPath);
      if (existing instanceof TFile) throw new Error(`A file is in the way at "${folderPath}"`);
      if (existing instanceof TFolder) parent = existing;
      else missing.push(folderPath);
    }
    return { parent, missing };
  }

  private attachFolder(folderPath: string, parent: TFolder): TFolder {
    const folder = new TFolder(this, folderPath);
    this.attach(folder, parent);
    return folder;
  }

  async createBinary(path: string, data: ArrayBuffer): Promise<TFile> {
    const file = await this.create(path, "");
    file.stat = this.adapter.writeBinaryNow(path, data);
    return file;
  }

  async createFolder(path: string): Promise<TFolder> {
    if (this.entries.has(path)) throw new Error("Folder already exists.");
    let { parent, missing } = this.folderChain(path);
    for (const folderPath of missing) {
      await this.adapter.mkdir(folderPath);
      parent = this.attachFolder(folderPath, parent);
      this.trigger("create", parent);
      await this.mirrorChange({ type: "folder", path: folderPath });
    }
    return parent;
  }

  read(file: TFile): Promise<string> {
    return this.adapter.read(this.known(file).path);
  }

  readBinary(file: TFile): Promise<ArrayBuffer> {
    return this.adapter.readBinary(this.known(file).path);
  }

  cachedRead(file: TFile): Promise<string> {
    return this.read(file);
  }

  async modify(file: TFile, data: string): Promise<void> {
    this.writeKnown(file, data);
    await this.mirrorChange({ type: "write", path: file.path, data });
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
    await this.mirrorChange({ type: "write", path: known.path, data: next });
    return next;
  }

  async delete(file: TAbstractFile): Promise<void> {
    await this.remove(file, "delete");
  }

  /** Obsidian moves the entry to the system or `.trash` folder; the double deletes it, and tells the mirror it was trashed. */
  async trash(file: TAbstractFile): Promise<void> {
    await this.remove(file, "trash");
  }

  private async remove(file: TAbstractFile, type: "delete" | "trash"): Promise<void> {
    const known = this.known(file);
    const removeInMemory = async (entry: TAbstractFile): Promise<void> => {
      if (entry instanceof TFolder) {
        for (const child of [...entry.children]) await removeInMemory(child);
        await this.adapter.rmdir(entry.path, true);
      } else await this.adapter.remove(entry.path);
      this.detach(entry);
      this.trigger("delete", entry);
    };
    await removeInMemory(known);
    // One change for the whole entry: the mirror removes a folder with what it holds.
    await this.mirrorChange({ type, path: known.path });
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
    await this.mirrorChange({ type: "rename", path: oldPath, newPath });
  }

  /** Hands a change to the mirror after the earlier ones; the config folder stays in memory. */
  private mirrorChange(change: VaultChange): Promise<void> {
    const mirror = this.mirror;
    if (!mirror || this.inConfigDir(change.path)) return Promise.resolve();
    const done = this.mirrored.then(() => mirror(change));
    // The queue goes on after a failure; the caller of the failed change gets the error.
    this.mirrored = done.catch(() => undefined);
    return done;
  }

  private inConfigDir(path: string): boolean {
    return path === this.configDir || path.startsWith(`${this.configDir}/`);
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


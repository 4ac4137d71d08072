import { normalizePath, TFile, type App, type CachedMetadata, type DataAdapter, type EventRef, type TAbstractFile } from "obsidian";
import { frontmatterAliases, frontmatterTags } from "./frontmatterFields";
import { decodeForEdit } from "./utf8Text";
import { isInConfigDir, parentFolder, toVaultPath } from "./vaultPath";
import {
  checkDataFileName,
  VaultFileExistsError,
  VaultFileNotFoundError,
  type DataStore,
  type FileStat,
  type LinkInfo,
  type NoteMetadata,
  type ReadOptions,
  type VaultEvent,
  type VaultPort,
} from "./VaultPort";

/** `VaultPort` on Obsidian's vault and metadata cache. Edits go through `Vault.process`. */
export class ObsidianVault implements VaultPort {
  constructor(private readonly app: App) {}

  get configDir(): string {
    return this.app.vault.configDir;
  }

  listNotes(): Promise<string[]> {
    return Promise.resolve(this.visible(this.app.vault.getMarkdownFiles()));
  }

  listFiles(): Promise<string[]> {
    return Promise.resolve(this.visible(this.app.vault.getFiles()));
  }

  // async so that a refused path rejects the promise instead of throwing at the call.
  async stat(path: string): Promise<FileStat | null> {
    const file = this.app.vault.getFileByPath(this.checked(path));
    return file ? { mtime: file.stat.mtime, ctime: file.stat.ctime, size: file.stat.size } : null;
  }

  async read(path: string, options: ReadOptions = {}): Promise<string> {
    const file = this.fileAt(path);
    if (options.forEdit) return decodeForEdit(await this.app.vault.readBinary(file), file.path);
    return this.app.vault.read(file);
  }

  async readBinary(path: string): Promise<Uint8Array> {
    return new Uint8Array(await this.app.vault.readBinary(this.fileAt(path)));
  }

  async create(path: string, content: string): Promise<void> {
    const vaultPath = this.checked(path);
    if (this.app.vault.getAbstractFileByPath(vaultPath)) throw new VaultFileExistsError(vaultPath);
    const folder = parentFolder(vaultPath);
    if (folder && !this.app.vault.getFolderByPath(folder)) await this.app.vault.createFolder(folder);
    await this.app.vault.create(vaultPath, content);
  }

  async process(path: string, transform: (current: string) => string): Promise<string> {
    const file = this.fileAt(path);
    // Obsidian decodes notes leniently: a note that is not UTF-8 must be refused before its
    // decoded text (every invalid byte turned into U+FFFD) could be written back.
    decodeForEdit(await this.app.vault.readBinary(file), file.path);
    return this.app.vault.process(file, transform);
  }

  async rename(path: string, newPath: string): Promise<void> {
    const file = this.fileAt(path);
    const target = this.checked(newPath);
    if (this.app.vault.getAbstractFileByPath(target)) throw new VaultFileExistsError(target);
    const folder = parentFolder(target);
    if (folder && !this.app.vault.getFolderByPath(folder)) await this.app.vault.createFolder(folder);
    // FileManager.renameFile rewrites the links to the file, as a rename in Obsidian does.
    await this.app.fileManager.renameFile(file, target);
  }

  async trash(path: string): Promise<void> {
    // FileManager.trashFile honours the user's "Deleted files" setting.
    await this.app.fileManager.trashFile(this.fileAt(path));
  }

  async getMetadata(path: string): Promise<NoteMetadata | null> {
    const file = this.app.vault.getFileByPath(this.checked(path));
    if (!file) return null;
    return fromCachedMetadata(this.app.metadataCache.getFileCache(file));
  }

  onChange(listener: (event: VaultEvent) => void): () => void {
    const vault = this.app.vault;
    const forward = (type: "create" | "modify" | "delete") => (file: TAbstractFile) => {
      if (file instanceof TFile && !isInConfigDir(file.path, this.configDir)) listener({ type, path: file.path });
    };
    const refs: EventRef[] = [
      vault.on("create", forward("create")),
      vault.on("modify", forward("modify")),
      vault.on("delete", forward("delete")),
      vault.on("rename", (file, oldPath) => {
        if (file instanceof TFile) listener({ type: "rename", path: file.path, oldPath });
      }),
    ];
    return () => refs.forEach((ref) => vault.offref(ref));
  }

  private checked(path: string): string {
    return normalizePath(toVaultPath(path, this.configDir));
  }

  private fileAt(path: string): TFile {
    const vaultPath = this.checked(path);
    const file = this.app.vault.getFileByPath(vaultPath);
    if (!file) throw new VaultFileNotFoundError(vaultPath);
    return file;
  }

  private visible(files: TFile[]): string[] {
    return files
      .map((file) => file.path)
      .filter((path) => !isInConfigDir(path, this.configDir))
      .sort();
  }
}

/** Converts Obsidian's cached metadata to the port's shape. */
export function fromCachedMetadata(cache: CachedMetadata | null): NoteMetadata {
  const frontmatter: Record<string, unknown> = { ...(cache?.frontmatter ?? {}) };
  const tags = [...new Set([...frontmatterTags(frontmatter), ...(cache?.tags ?? []).map((t) => t.tag)])];
  const links: LinkInfo[] = [
    ...(cache?.links ?? []).map((l) => ({ link: l.link.split("#")[0] ?? l.link, original: l.original, embed: false })),
    ...(cache?.embeds ?? []).map((l) => ({ link: l.link.split("#")[0] ?? l.link, original: l.original, embed: true })),
  ];
  return {
    frontmatter,
    tags,
    aliases: frontmatterAliases(frontmatter),
    links,
    headings: (cache?.headings ?? []).map((h) => ({ heading: h.heading, level: h.level, line: h.position.start.line })),
  };
}

/** `DataStore` in the plugin's own folder, through the vault adapter. */
export class ObsidianDataStore implements DataStore {
  private updates: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly adapter: DataAdapter,
    private readonly folder: string,
  ) {}

  async read(name: string): Promise<string | null> {
    const path = this.pathOf(name);
    return (await this.adapter.exists(path)) ? this.adapter.read(path) : null;
  }

  async write(name: string, data: string): Promise<void> {
    if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
    await this.adapter.write(this.pathOf(name), data);
  }

  /**
   * Read, change, write, one update at a time within the plugin. The adapter offers no lock a
   * CLI could share: a CLI run appending to the same file at the same moment can still win.
   */
  update(name: string, change: (current: string | null) => string): Promise<string> {
    const run = this.updates.then(async () => {
      const next = change(await this.read(name));
      await this.write(name, next);
      return next;
    });
    this.updates = run.catch(() => undefined);
    return run;
  }

  async remove(name: string): Promise<void> {
    const path = this.pathOf(name);
    if (await this.adapter.exists(path)) await this.adapter.remove(path);
  }

  private pathOf(name: string): string {
    return normalizePath(`${this.folder}/${checkDataFileName(name)}`);
  }
}

import { constants as fsConstants, promises as fs, type Dirent, type Stats } from "node:fs";
import * as nodePath from "node:path";
import { errorMessage } from "../errorMessage";
import { writeFileAtomically } from "./fsDataStore";
import { parseMarkdownMetadata } from "./markdownMetadata";
import { baseName, isInConfigDir, parentFolder, toVaultPath, VaultPathError } from "./vaultPath";
import {
  VaultFileExistsError,
  VaultFileNotFoundError,
  type FileStat,
  type NoteMetadata,
  type VaultEvent,
  type VaultPort,
} from "./VaultPort";

export interface FsVaultOptions {
  /** Told of what a listing had to leave out (a folder that cannot be read), once per folder. */
  onProblem?: (message: string) => void;
}

/**
 * `VaultPort` on a plain folder (Node only: the CLI, tests, benchmarks). Follows Obsidian's rules:
 * hidden files and folders are not part of the vault, writes are atomic (a temporary file renamed
 * over the note), and trashed files go to `<vault>/.trash/`, as with Obsidian's "Move to Obsidian
 * trash" option. Events are emitted for changes made through this object; changes made behind its
 * back are picked up by whoever compares modification times (the search index does).
 */
export class FsVault implements VaultPort {
  readonly root: string;
  private realRoot: string | undefined;
  private readonly listeners = new Set<(event: VaultEvent) => void>();
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Vault folders verified to be real folders inside the vault (see `inKnownFolder`). */
  private readonly realFolders = new Map<string, string>();

  /** Folders already reported as unreadable, so a listing per tool call does not repeat them. */
  private readonly reportedFolders = new Set<string>();

  constructor(
    root: string,
    readonly configDir = ".obsidian",
    private readonly options: FsVaultOptions = {},
  ) {
    this.root = nodePath.resolve(root);
  }

  async listNotes(): Promise<string[]> {
    return (await this.listFiles()).filter((path) => path.toLowerCase().endsWith(".md"));
  }

  async listFiles(): Promise<string[]> {
    const files: string[] = [];
    const walk = async (relative: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(nodePath.join(this.root, relative), { withFileTypes: true });
      } catch (error) {
        // One folder that cannot be read (no permission, gone meanwhile) leaves the rest listed.
        if (relative === "") throw error;
        this.reportUnreadable(relative, error);
        return;
      }
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const path = relative ? `${relative}/${entry.name}` : entry.name;
        if (isInConfigDir(path, this.configDir)) continue;
        if (entry.isDirectory()) await walk(path);
        // Names as on disk (a decomposed name stays decomposed): the tools look up by pathKey.
        else if (entry.isFile()) files.push(path);
      }
    };
    await walk("");
    return files.sort();
  }

  private reportUnreadable(folder: string, error: unknown): void {
    if (this.reportedFolders.has(folder)) return;
    this.reportedFolders.add(folder);
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    this.options.onProblem?.(`Left the folder ${JSON.stringify(folder)} out: it could not be read (${code ?? errorMessage(error)}).`);
  }

  async stat(path: string): Promise<FileStat | null> {
    const vaultPath = this.checked(path);
    const known = this.inKnownFolder(vaultPath);
    try {
      // In a folder already verified, lstat checks the note itself: a link takes the full check.
      const stats = known ? await fs.lstat(known) : await fs.stat(await this.resolve(vaultPath));
      if (known && stats.isSymbolicLink()) return this.statResolved(vaultPath);
      return fileStatOf(stats);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(path: string): Promise<string> {
    const vaultPath = this.checked(path);
    const known = this.inKnownFolder(vaultPath);
    try {
      if (known) {
        try {
          // O_NOFOLLOW: a note that is a link is refused here and takes the full check below.
          return await fs.readFile(known, { encoding: "utf8", flag: fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
        }
      }
      return await fs.readFile(await this.resolve(vaultPath), "utf8");
    } catch (error) {
      if (isNotFound(error) || isDirectory(error)) throw new VaultFileNotFoundError(vaultPath);
      throw error;
    }
  }

  private async statResolved(vaultPath: string): Promise<FileStat | null> {
    return fileStatOf(await fs.stat(await this.resolve(vaultPath)));
  }

  /**
   * The absolute path of a note whose folder an earlier full check found to be a real folder
   * inside the vault, or undefined. Reads use it to skip a `realpath` per note (the search index
   * reads every note at start); writes always take the full check. This object serves the CLI
   * and tests, short-lived processes over a folder nobody rearranges into links meanwhile.
   */
  private inKnownFolder(vaultPath: string): string | undefined {
    const real = this.realFolders.get(parentFolder(vaultPath));
    return real === undefined ? undefined : nodePath.join(real, baseName(vaultPath));
  }

  async create(path: string, content: string): Promise<void> {
    const vaultPath = this.checked(path);
    await this.withLock(vaultPath, async () => {
      const absolute = await this.resolve(vaultPath);
      await fs.mkdir(nodePath.dirname(absolute), { recursive: true });
      // Re-check after the folders exist: a symlinked folder could only be seen now.
      const target = await this.resolve(vaultPath);
      try {
        await fs.writeFile(target, content, { encoding: "utf8", flag: "wx" });
      } catch (error) {
        if (isExists(error)) throw new VaultFileExistsError(vaultPath);
        throw error;
      }
    });
    this.emit({ type: "create", path: vaultPath });
  }

  async process(path: string, transform: (current: string) => string): Promise<string> {
    const vaultPath = this.checked(path);
    let changed = false;
    const next = await this.withLock(vaultPath, async () => {
      const current = await this.read(vaultPath);
      const updated = transform(current);
      if (updated === current) return current;
      await writeFileAtomically(await this.resolve(vaultPath), updated);
      changed = true;
      return updated;
    });
    if (changed) this.emit({ type: "modify", path: vaultPath });
    return next;
  }

  async trash(path: string): Promise<void> {
    const vaultPath = this.checked(path);
    await this.withLock(vaultPath, async () => {
      const absolute = await this.resolve(vaultPath);
      if (!(await this.stat(vaultPath))) throw new VaultFileNotFoundError(vaultPath);
      const trashFolder = nodePath.join(this.root, ".trash");
      await fs.mkdir(trashFolder, { recursive: true });
      const parsed = nodePath.parse(vaultPath.replace(/\//g, "_"));
      let destination = nodePath.join(trashFolder, parsed.base);
      for (let n = 1; await exists(destination); n++) {
        destination = nodePath.join(trashFolder, `${parsed.name} ${n}${parsed.ext}`);
      }
      await fs.rename(absolute, destination);
    });
    this.emit({ type: "delete", path: vaultPath });
  }

  async getMetadata(path: string): Promise<NoteMetadata | null> {
    try {
      return parseMarkdownMetadata(await this.read(path));
    } catch (error) {
      if (error instanceof VaultFileNotFoundError) return null;
      throw error;
    }
  }

  onChange(listener: (event: VaultEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The absolute path for a vault path, refused if it (or a symlink on its way) leaves the vault. */
  async resolve(path: string): Promise<string> {
    const vaultPath = this.checked(path);
    const absolute = nodePath.join(this.root, ...vaultPath.split("/"));
    const realRoot = (this.realRoot ??= await fs.realpath(this.root));
    // Follow symlinks as far as the path exists; what does not exist yet cannot be a link.
    let existing = absolute;
    const rest: string[] = [];
    for (;;) {
      try {
        existing = await fs.realpath(existing);
        break;
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // A dangling link cannot be followed safely: where it leads may be created outside.
        if (await isSymlink(existing)) throw new VaultPathError(path, "it goes through a symbolic link that points nowhere");
        rest.unshift(nodePath.basename(existing));
        existing = nodePath.dirname(existing);
      }
    }
    const real = nodePath.join(existing, ...rest);
    if (real !== realRoot && !real.startsWith(realRoot + nodePath.sep)) {
      throw new VaultPathError(path, "it leads outside the vault through a symbolic link");
    }
    const relative = nodePath.relative(realRoot, real).split(nodePath.sep).join("/");
    if (isInConfigDir(relative, this.configDir)) {
      throw new VaultPathError(path, `it leads into the "${this.configDir}" folder through a symbolic link`);
    }
    // No link on the way to the folder (it is where the vault path says): remember it for reads.
    if (rest.length === 0 && relative === vaultPath) this.realFolders.set(parentFolder(vaultPath), nodePath.dirname(real));
    return real;
  }

  private checked(path: string): string {
    return toVaultPath(path, this.configDir);
  }

  /** Serializes writes to one path, so two edits never interleave their read and write. */
  private async withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(path) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.locks.set(path, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(path) === settled) this.locks.delete(path);
    }
  }

  private emit(event: VaultEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** The port's stat of a regular file; null for folders and anything else. */
function fileStatOf(stats: Stats): FileStat | null {
  return stats.isFile() ? { mtime: stats.mtimeMs, ctime: stats.birthtimeMs || stats.ctimeMs, size: stats.size } : null;
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT" || (error as NodeJS.ErrnoException | undefined)?.code === "ENOTDIR";
}
function isExists(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EEXIST";
}
function isDirectory(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EISDIR";
}
async function isSymlink(absolute: string): Promise<boolean> {
  try {
    return (await fs.lstat(absolute)).isSymbolicLink();
  } catch {
    return false;
  }
}
async function exists(absolute: string): Promise<boolean> {
  try {
    await fs.access(absolute);
    return true;
  } catch {
    return false;
  }
}

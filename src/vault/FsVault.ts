import { constants as fsConstants, promises as fs, type Dirent, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import * as nodePath from "node:path";
import { errorMessage } from "../errorMessage";
import { KeyedSerialQueue } from "../ports/serialQueue";
import { isTemporaryFileName, removeIfStaleTemporaryFile, writeFileAtomically } from "./atomicWrite";
import { isLockFileName, lockFileFor, removeIfStaleLock, withFileLock } from "./fileLock";
import { decodeForEdit } from "./utf8Text";
import { withVaultPath } from "./vaultIoError";
import { parseMarkdownMetadata } from "./markdownMetadata";
import { baseName, isInConfigDir, parentFolder, quotePath, toVaultPath, VaultPathError } from "./vaultPath";
import {
  VaultFileBusyError,
  VaultFileExistsError,
  VaultFileNotFoundError,
  VaultFileRefusedError,
  VaultNoteChangedError,
  type FileStat,
  type ReadOptions,
  type NoteMetadata,
  type VaultEvent,
  type VaultPort,
} from "./VaultPort";

export interface FsVaultOptions {
  /** Told of what a listing had to leave out (a folder that cannot be read), once per folder. */
  onProblem?: (message: string) => void;
  /** How long an edit waits for another process's lock on the same note (default 10 s). */
  lockWaitMs?: number;
}

/**
 * `VaultPort` on a plain folder (Node only: the CLI, tests, benchmarks). Follows Obsidian's rules:
 * hidden files and folders are not part of the vault, writes are atomic (a temporary file renamed
 * over the note), and trashed files go to `<vault>/.trash/`, as with Obsidian's "Move to Obsidian
 * trash" option. Only regular files are read or written as notes; edits refuse what they could
 * not write back byte-exactly or without side effects (see `process`). Events are emitted for changes made through this object; changes made behind its
 * back are picked up by whoever compares modification times (the search index does).
 */
export class FsVault implements VaultPort {
  readonly root: string;
  private realRoot: string | undefined;
  private readonly listeners = new Set<(event: VaultEvent) => void>();
  /** Writes to one path run one at a time, so two edits never interleave their read and write. */
  private readonly writes = new KeyedSerialQueue();
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
    const now = Date.now();
    const walk = async (relative: string): Promise<void> => {
      const folder = nodePath.join(this.root, relative);
      let entries: Dirent[];
      try {
        entries = await fs.readdir(folder, { withFileTypes: true });
      } catch (error) {
        // One folder that cannot be read (no permission, gone meanwhile) leaves the rest listed.
        if (relative === "") throw error;
        this.reportUnreadable(relative, error);
        return;
      }
      for (const entry of entries) {
        if (entry.name.startsWith(".")) {
          // Hidden entries are not notes. Our temporary files among them that a killed write
          // left behind (older than a minute), and its lock files, are removed while we pass.
          if (isTemporaryFileName(entry.name)) await removeIfStaleTemporaryFile(folder, entry.name, now);
          else if (isLockFileName(entry.name)) await removeIfStaleLock(nodePath.join(folder, entry.name));
          continue;
        }
        const path = relative ? `${relative}/${entry.name}` : entry.name;
        if (isInConfigDir(path, this.configDir)) continue;
        // Regular files only: a pipe, socket or device named like a note would hang a reader.
        if (entry.isDirectory()) await walk(path);
        // Names as on disk (a decomposed name stays decomposed): the tools look up by pathKey.
        else if (entry.isFile()) files.push(path);
      }
    };
    await this.guarded("", "list", () => walk(""));
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
    return this.guarded(vaultPath, "look at", async () => {
      try {
        // In a folder already verified, lstat checks the note itself: a link takes the full check.
        const stats = known ? await fs.lstat(known) : await fs.stat(await this.resolve(vaultPath));
        if (known && stats.isSymbolicLink()) return this.statResolved(vaultPath);
        return fileStatOf(stats);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    });
  }

  async read(path: string, options: ReadOptions = {}): Promise<string> {
    const vaultPath = this.checked(path);
    const { bytes } = await this.guarded(vaultPath, "read", () => this.readBytes(vaultPath));
    return decodeText(bytes, vaultPath, options.forEdit === true);
  }

  async readBinary(path: string): Promise<Uint8Array> {
    const vaultPath = this.checked(path);
    const { bytes } = await this.guarded(vaultPath, "read", () => this.readBytes(vaultPath));
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private async statResolved(vaultPath: string): Promise<FileStat | null> {
    return fileStatOf(await fs.stat(await this.resolve(vaultPath)));
  }

  /**
   * The absolute path of a note whose folder an earlier full check found to be a real folder
   * inside the vault, or undefined. `stat` uses it to skip a full check per note (the search index
   * stats every note at start): a stat lets no text out. Reads check the note's folder again every
   * time (`openNote`), so a folder swapped for a link meanwhile cannot leak text from outside.
   */
  private inKnownFolder(vaultPath: string): string | undefined {
    const real = this.realFolders.get(parentFolder(vaultPath));
    return real === undefined ? undefined : nodePath.join(real, baseName(vaultPath));
  }

  async create(path: string, content: string): Promise<void> {
    const vaultPath = this.checked(path);
    await this.guardedWrite(vaultPath, "create", async () => {
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

  /**
   * Edits a note by renaming a finished temporary file over it, as a compare-and-swap: our own
   * processes take the note's lock file from the read through the rename, and right before the
   * rename the note must still be the very file that was read (device, inode, size, mtime and
   * bytes), or nothing is written and `VaultNoteChangedError` says so. Obsidian does not take the
   * lock; against it only the compare holds, which leaves the few microseconds between the
   * compare and the rename open.
   */
  async process(path: string, transform: (current: string) => string): Promise<string> {
    const vaultPath = this.checked(path);
    let changed = false;
    const next = await this.guardedWrite(vaultPath, "edit", async () => {
      const target = await this.resolve(vaultPath);
      await this.requireExisting(vaultPath, target);
      const busy = (holder: string) => new VaultFileBusyError(vaultPath, holder);
      return withFileLock(
        lockFileFor(target),
        async () => {
          const read = await this.readBytes(vaultPath, target);
          const current = decodeText(read.bytes, vaultPath, true);
          await checkWritable(vaultPath, read.absolute, read.stats);
          const updated = transform(current);
          if (updated === current) return current;
          await writeFileAtomically(read.absolute, updated, {
            // Keep the note's permissions: a private (0600) note stays private.
            mode: read.stats.mode & 0o7777,
            beforeRename: () => this.requireUnchanged(vaultPath, read),
          });
          changed = true;
          return updated;
        },
        { waitMs: this.options.lockWaitMs ?? 10_000, busy },
      );
    });
    if (changed) this.emit({ type: "modify", path: vaultPath });
    return next;
  }

  async rename(path: string, newPath: string): Promise<void> {
    const from = this.checked(path);
    const to = this.checked(newPath);
    await this.guardedWrite(from, `move to ${quotePath(to)}`, async () => {
      const source = await this.resolve(from);
      if (!(await this.stat(from))) throw new VaultFileNotFoundError(from);
      const absolute = await this.resolve(to);
      await fs.mkdir(nodePath.dirname(absolute), { recursive: true });
      const target = await this.resolve(to);
      // A hard link fails when the name is taken, where a rename would replace the file there.
      try {
        await fs.link(source, target);
      } catch (error) {
        if (isExists(error)) throw new VaultFileExistsError(to);
        throw error;
      }
      await fs.unlink(source);
    });
    this.emit({ type: "rename", path: to, oldPath: from });
  }

  async trash(path: string): Promise<void> {
    const vaultPath = this.checked(path);
    await this.guardedWrite(vaultPath, "move to the trash", async () => {
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
    const relative = this.insideVault(path, real, realRoot);
    // No link on the way to the folder (it is where the vault path says): remember it for reads.
    if (rest.length === 0 && relative === vaultPath) this.realFolders.set(parentFolder(vaultPath), nodePath.dirname(real));
    return real;
  }

  /** `real` (a path without links) relative to the vault, refused if it is outside or in the config folder. */
  private insideVault(path: string, real: string, realRoot: string): string {
    if (real !== realRoot && !real.startsWith(realRoot + nodePath.sep)) {
      throw new VaultPathError(path, "it leads outside the vault through a symbolic link");
    }
    const relative = nodePath.relative(realRoot, real).split(nodePath.sep).join("/");
    if (isInConfigDir(relative, this.configDir)) {
      throw new VaultPathError(path, `it leads into the "${this.configDir}" folder through a symbolic link`);
    }
    return relative;
  }

  /** A note's bytes, read from a regular file verified to be inside the vault (see `openNote`). */
  private async readBytes(vaultPath: string, resolved?: string): Promise<ReadNote> {
    const opened = await this.openNote(vaultPath, resolved);
    try {
      return { ...opened, bytes: await readWhole(opened.handle, opened.stats.size) };
    } finally {
      await opened.handle.close();
    }
  }

  /**
   * Opens a note for reading so that its text can leave the port: never blocking (O_NONBLOCK: a
   * pipe named like a note would otherwise hang the read for good), never through a link as the
   * last step (O_NOFOLLOW; a note that is a link is resolved with the full check and opened where
   * it leads), only a regular file, and only one that is inside the vault now: the real path of
   * its folder is taken after the open, and the file found there must be the very file opened.
   * This is what keeps a folder swapped for a link mid-run from leaking text from outside.
   */
  private async openNote(vaultPath: string, resolved?: string, attempt = 1): Promise<OpenNote> {
    const absolute = resolved ?? nodePath.join(this.root, ...vaultPath.split("/"));
    let handle: FileHandle;
    try {
      handle = await fs.open(absolute, OPEN_FOR_READING);
    } catch (error) {
      if (errorCode(error) === "ELOOP") {
        if (resolved === undefined) return this.openNote(vaultPath, await this.resolve(vaultPath), attempt);
        throw new VaultPathError(vaultPath, "it was replaced by a symbolic link while being opened");
      }
      if (isNotFound(error) || isDirectory(error)) {
        // Missing here, but a path through a link out of the vault is refused as such, not "missing".
        if (resolved === undefined) await this.resolve(vaultPath);
        throw new VaultFileNotFoundError(vaultPath);
      }
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new VaultFileNotFoundError(vaultPath);
      if (!stats.isFile()) {
        throw new VaultFileRefusedError(vaultPath, "is not a regular file (it is a pipe, socket or device), and only regular files are read or written as notes");
      }
      const real = await realPathOfOpenFile(handle, absolute, stats);
      if (real !== null) {
        this.insideVault(vaultPath, real, (this.realRoot ??= await fs.realpath(this.root)));
        return { handle, stats, absolute: real };
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    await handle.close();
    // Moved or replaced between the open and the check (an editor saving, or a swap): look again.
    if (attempt < 3) return this.openNote(vaultPath, resolved, attempt + 1);
    throw new VaultPathError(vaultPath, "it kept being moved or replaced while it was opened");
  }

  /** For an edit: the note must exist before its lock is taken in its folder. */
  private async requireExisting(vaultPath: string, target: string): Promise<void> {
    try {
      await fs.lstat(target);
    } catch (error) {
      if (isNotFound(error)) throw new VaultFileNotFoundError(vaultPath);
      throw error;
    }
  }

  /** The compare of the compare-and-swap: the note is still the very file, with the very bytes, an edit read. */
  private async requireUnchanged(vaultPath: string, read: ReadNote): Promise<void> {
    let now: ReadNote;
    try {
      now = await this.readBytes(vaultPath, read.absolute);
    } catch (error) {
      if (error instanceof VaultFileNotFoundError) throw new VaultNoteChangedError(vaultPath);
      throw error;
    }
    const same =
      now.absolute === read.absolute &&
      now.stats.dev === read.stats.dev &&
      now.stats.ino === read.stats.ino &&
      now.stats.size === read.stats.size &&
      now.stats.mtimeMs === read.stats.mtimeMs &&
      now.bytes.equals(read.bytes);
    if (!same) throw new VaultNoteChangedError(vaultPath);
  }

  private checked(path: string): string {
    return toVaultPath(path, this.configDir);
  }

  private withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
    return this.writes.run(path, work);
  }

  /** A write under the path's lock, its file-system errors told with the vault path. */
  private guardedWrite<T>(vaultPath: string, action: string, work: () => Promise<T>): Promise<T> {
    return this.guarded(vaultPath, action, () => this.withLock(vaultPath, work));
  }

  /**
   * Runs `work`, telling its file-system errors with the vault path instead of Node's message,
   * which names the absolute one (see vaultIoError.ts): what this throws reaches the model.
   */
  private async guarded<T>(vaultPath: string, action: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw withVaultPath(error, vaultPath, action);
    }
  }

  private emit(event: VaultEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

interface OpenNote {
  handle: FileHandle;
  stats: Stats;
  /** The note's real path (no links), inside the vault. */
  absolute: string;
}

interface ReadNote {
  stats: Stats;
  absolute: string;
  bytes: Buffer;
}

const OPEN_FOR_READING = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/** A note's text: leniently decoded for reading, strictly (refusing invalid UTF-8) for an edit. */
function decodeText(bytes: Buffer, vaultPath: string, forEdit: boolean): string {
  return forEdit ? decodeForEdit(bytes, vaultPath) : bytes.toString("utf8");
}

/**
 * Refuses notes an edit must not replace: read-only ones (the user, or the system, said no), and
 * hard-linked ones. An edit renames a new file over the note, which would split a hard link (the
 * other names keep the old text). Writing such a note in place instead would give up what the
 * rename buys (a kill or a full disk mid-write leaves half a note), so it is refused; Obsidian
 * writes notes in place, so the user can still edit it there.
 */
async function checkWritable(vaultPath: string, absolute: string, stats: Stats): Promise<void> {
  // No write bit for anyone: read-only even for root, whom `access` would let through.
  if ((stats.mode & 0o222) === 0) throw new VaultFileRefusedError(vaultPath, "is read-only (nobody has permission to write it), so Copilot does not change it");
  try {
    await fs.access(absolute, fsConstants.W_OK);
  } catch {
    throw new VaultFileRefusedError(vaultPath, "is read-only for this user, so Copilot does not change it");
  }
  if (stats.nlink > 1) {
    throw new VaultFileRefusedError(
      vaultPath,
      `has ${stats.nlink - 1} other hard link(s); an edit replaces the file, which would leave the other names with the old text, so Copilot does not edit it (Obsidian can)`,
    );
  }
}

/**
 * The whole file, in one read when it is still the size its stat gave (asking for one byte more
 * than that size shows whether it grew meanwhile: then the rest is read in chunks).
 */
async function readWhole(handle: FileHandle, size: number): Promise<Buffer> {
  const first = Buffer.allocUnsafe(size + 1);
  const { bytesRead } = await handle.read(first, 0, first.length, 0);
  if (bytesRead <= size) return first.subarray(0, bytesRead);
  const chunks = [first];
  for (let position = first.length; ; ) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const read = await handle.read(chunk, 0, chunk.length, position);
    if (read.bytesRead === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, read.bytesRead));
    position += read.bytesRead;
  }
}

/**
 * The real path (no links) of the file `handle` has open, or null when it was moved or replaced
 * since the open. On Linux the kernel names the open file itself (`/proc/self/fd`: one call, no
 * race); elsewhere the folder's real path is taken after the open, and the file found there must
 * be the very file opened (device and inode).
 */
export async function realPathOfOpenFile(handle: FileHandle, absolute: string, stats: Stats, askTheKernel = process.platform === "linux"): Promise<string | null> {
  if (askTheKernel) {
    let named: string | undefined;
    try {
      named = await fs.readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      // No /proc (a sandbox): take the portable way below.
    }
    if (named !== undefined) {
      // The kernel marks a file that has no name any more; a live file could end so only by its name.
      if (named.endsWith(" (deleted)") && (await handle.stat()).nlink === 0) return null;
      return named;
    }
  }
  const real = nodePath.join(await fs.realpath(nodePath.dirname(absolute)), nodePath.basename(absolute));
  const there = await lstatOrNull(real);
  return there?.dev === stats.dev && there.ino === stats.ino ? real : null;
}

/** The port's stat of a regular file; null for folders and anything else. */
function fileStatOf(stats: Stats): FileStat | null {
  return stats.isFile() ? { mtime: stats.mtimeMs, ctime: stats.birthtimeMs || stats.ctimeMs, size: stats.size } : null;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
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
async function lstatOrNull(absolute: string): Promise<Stats | null> {
  try {
    return await fs.lstat(absolute);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
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

import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";

/**
 * The temporary file a write renames over its target: hidden (listing, Obsidian and the index
 * skip dot files) and named so a sweep can tell ours from anybody else's:
 * `.<name>.vault-copilot-<pid>-<random>.tmp`, beside the target (a rename is atomic only within
 * one file system).
 */
export function temporaryFileFor(absolute: string): string {
  const name = `.${nodePath.basename(absolute)}.vault-copilot-${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  return nodePath.join(nodePath.dirname(absolute), name);
}

const TEMPORARY_NAME = /^\..+\.vault-copilot-\d+-[0-9a-f]{8}\.tmp$/;

export function isTemporaryFileName(name: string): boolean {
  return TEMPORARY_NAME.test(name);
}

/** A temporary file untouched this long belongs to a write that was killed (a live write takes milliseconds). */
export const STALE_TEMPORARY_FILE_MS = 60_000;

export interface AtomicWriteOptions {
  /** Permission bits of the new file: the old note's, or 0o600 for the plugin's private data. */
  mode: number;
  /**
   * Runs once the new text is complete on disk, right before the rename; throwing abandons the
   * write (the temporary file is removed). The compare-and-swap of an edit happens here, so the
   * window between the last check and the rename is as short as it can be.
   */
  beforeRename?: () => Promise<void>;
}

/** Writes a file by renaming a finished temporary file over it: readers see the old text or the new, never half. */
export async function writeFileAtomically(absolute: string, content: string, options: AtomicWriteOptions): Promise<void> {
  const temporary = temporaryFileFor(absolute);
  try {
    const handle = await fs.open(temporary, "wx", options.mode);
    try {
      await handle.writeFile(content, "utf8");
      // The umask may have taken bits from the mode given to open: set exactly the old ones.
      await handle.chmod(options.mode);
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await fs.rename(temporary, absolute);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** Removes our temporary file `name` in `folder` if a killed write left it (older than a minute). */
export async function removeIfStaleTemporaryFile(folder: string, name: string, now = Date.now()): Promise<void> {
  if (!isTemporaryFileName(name)) return;
  const absolute = nodePath.join(folder, name);
  try {
    const stats = await fs.lstat(absolute);
    if (stats.isFile() && now - stats.mtimeMs > STALE_TEMPORARY_FILE_MS) await fs.rm(absolute, { force: true });
  } catch (error) {
    // Gone already (its write finished, or another sweep took it): nothing to do.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Removes the temporary files killed writes left in `folder` (not its subfolders); a missing folder has none. */
export async function removeStaleTemporaryFiles(folder: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const now = Date.now();
  for (const name of names) await removeIfStaleTemporaryFile(folder, name, now);
}

import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { removeStaleTemporaryFiles, writeFileAtomically } from "./atomicWrite";
import { isLockFileName, lockFileFor, removeIfStaleLock, withFileLock } from "./fileLock";
import { checkDataFileName, VaultFileBusyError, type DataStore } from "./VaultPort";
import { withVaultPath } from "./vaultIoError";

/** The plugin's data folder as Obsidian lays it out: `<vault>/<configDir>/plugins/<pluginId>/`. */
export function pluginDataFolder(vaultRoot: string, configDir = ".obsidian", pluginId = "vault-copilot"): string {
  return nodePath.join(vaultRoot, configDir, "plugins", pluginId);
}

/** Plugin data (the edit history holds note text, the index holds words of every note) is for the user alone. */
const PRIVATE_FILE_MODE = 0o600;

/** How many times `update` starts over when the file changed between its read and its rename. */
const UPDATE_ATTEMPTS = 5;

class StoredFileChangedError extends Error {
  constructor(name: string) {
    super(`"${name}" kept changing while it was being updated (another program writes it); nothing was written.`);
    this.name = "StoredFileChangedError";
  }
}

export interface FsDataStoreOptions {
  /** How long `update` waits for another process's lock on the same file. */
  lockWaitMs?: number;
}

/**
 * `DataStore` on a folder (the CLI keeps its index where the plugin keeps it). Writes are atomic
 * and private (0600); `update` holds a lock file and compares before its rename, so two processes
 * appending to one file lose nothing. On first use it removes temporary files a killed write left.
 */
export class FsDataStore implements DataStore {
  private swept: Promise<void> | undefined;

  constructor(
    readonly folder: string,
    private readonly options: FsDataStoreOptions = {},
  ) {}

  async read(name: string): Promise<string | null> {
    const path = this.pathOf(name);
    return told(name, "read", async () => {
      await this.sweepOnce();
      try {
        return await fs.readFile(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    });
  }

  async write(name: string, data: string): Promise<void> {
    const target = this.pathOf(name);
    await told(name, "write", async () => {
      await this.sweepOnce();
      await fs.mkdir(nodePath.dirname(target), { recursive: true });
      await writeFileAtomically(target, data, { mode: PRIVATE_FILE_MODE });
    });
  }

  update(name: string, change: (current: string | null) => string): Promise<string> {
    return told(name, "update", () => this.updateNow(name, change));
  }

  private async updateNow(name: string, change: (current: string | null) => string): Promise<string> {
    const target = this.pathOf(name);
    await this.sweepOnce();
    await fs.mkdir(nodePath.dirname(target), { recursive: true });
    const busy = (holder: string) => new VaultFileBusyError(name, holder);
    return withFileLock(
      lockFileFor(target),
      async () => {
        // The lock keeps our own processes apart; the compare before the rename catches any
        // other writer (or two processes that both took over one stale lock): start over then.
        for (let attempt = 1; ; attempt++) {
          const current = await this.read(name);
          const next = change(current);
          try {
            await writeFileAtomically(target, next, {
              mode: PRIVATE_FILE_MODE,
              beforeRename: async () => {
                if ((await this.read(name)) !== current) throw new StoredFileChangedError(name);
              },
            });
            return next;
          } catch (error) {
            if (!(error instanceof StoredFileChangedError) || attempt >= UPDATE_ATTEMPTS) throw error;
          }
        }
      },
      { waitMs: this.options.lockWaitMs ?? 10_000, busy },
    );
  }

  async remove(name: string): Promise<void> {
    const path = this.pathOf(name);
    await told(name, "remove", () => fs.rm(path, { force: true }));
  }

  private pathOf(name: string): string {
    return nodePath.join(this.folder, checkDataFileName(name));
  }

  /** Once per store: removes the temporary files and locks that killed writes left in the folder. */
  private sweepOnce(): Promise<void> {
    return (this.swept ??= (async () => {
      await removeStaleTemporaryFiles(this.folder);
      // removeStaleTemporaryFiles returned quietly if the folder is missing; then it has no locks either.
      const names = await fs.readdir(this.folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      for (const name of names.filter(isLockFileName)) await removeIfStaleLock(nodePath.join(this.folder, name));
    })());
  }
}

/** Runs `work`, telling its file-system errors with the data file's name, not its absolute path (see vaultIoError.ts). */
async function told<T>(name: string, action: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw withVaultPath(error, name, `${action} the plugin data file`);
  }
}

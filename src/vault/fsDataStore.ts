import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { checkDataFileName, type DataStore } from "./VaultPort";

/** The plugin's data folder as Obsidian lays it out: `<vault>/<configDir>/plugins/<pluginId>/`. */
export function pluginDataFolder(vaultRoot: string, configDir = ".obsidian", pluginId = "vault-copilot"): string {
  return nodePath.join(vaultRoot, configDir, "plugins", pluginId);
}

/** `DataStore` on a folder (the CLI keeps its index where the plugin keeps it). Writes are atomic. */
export class FsDataStore implements DataStore {
  constructor(readonly folder: string) {}

  async read(name: string): Promise<string | null> {
    try {
      return await fs.readFile(this.pathOf(name), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async write(name: string, data: string): Promise<void> {
    const target = this.pathOf(name);
    await fs.mkdir(nodePath.dirname(target), { recursive: true });
    await writeFileAtomically(target, data);
  }

  async remove(name: string): Promise<void> {
    await fs.rm(this.pathOf(name), { force: true });
  }

  private pathOf(name: string): string {
    return nodePath.join(this.folder, checkDataFileName(name));
  }
}

/** Writes a file by renaming a finished temporary file over it: readers see the old text or the new, never half. */
export async function writeFileAtomically(absolute: string, content: string): Promise<void> {
  const temporary = `${absolute}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.writeFile(temporary, content, "utf8");
    await fs.rename(temporary, absolute);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

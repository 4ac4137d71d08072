import { promises as fs } from "node:fs";
import { setImmediate } from "node:timers";
import { NoteIndex } from "../search/NoteIndex";
import type { CopilotSettings } from "../settings/settingsSchema";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import { FsVault } from "../vault/FsVault";
import type { CliIo } from "./io";
import { loadVaultSettings } from "./vaultSettings";

/** The folder's note index, kept in its plugin folder as in Obsidian, with the vault's settings. */
export interface CliIndex {
  vault: FsVault;
  settings: CopilotSettings;
  index: NoteIndex;
}

/**
 * Opens `--vault DIR` for the index-only commands (`search`, `similar`): the folder must exist;
 * the settings are the plugin's there (exclusions, history folder). Nothing of LangChain loads.
 */
export async function openCliIndex(folder: string, io: CliIo): Promise<CliIndex> {
  const stats = await fs.stat(folder).catch(() => null);
  if (!stats?.isDirectory()) throw new Error(`no folder at --vault "${folder}"`);
  const vault = new FsVault(folder, undefined, { onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`) });
  const settings = await loadVaultSettings(vault, io);
  return { vault, settings, index: createCliNoteIndex(vault, settings, io) };
}

/** The note index of a folder, kept in its plugin folder as the plugin keeps it. */
export function createCliNoteIndex(vault: FsVault, settings: CopilotSettings, io: CliIo): NoteIndex {
  return new NoteIndex({
    vault,
    store: new FsDataStore(pluginDataFolder(vault.root, vault.configDir)),
    getSettings: () => settings.search,
    timeZone: () => settings.timeZone,
    onProblem: (message) => io.stderr(`vault-copilot: ${message}\n`),
    // Node has no UI thread to keep free; handing back through setImmediate costs nothing.
    yieldNow: () => new Promise((resolve) => setImmediate(resolve)),
  });
}

/** A score as printed: four decimals. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

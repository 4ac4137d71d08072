import { DEFAULT_SETTINGS } from "../constants";
import { loadSettings } from "../settings/loadSettings";
import type { CopilotSettings } from "../settings/settingsSchema";
import { FsDataStore, pluginDataFolder } from "../vault/fsDataStore";
import type { FsVault } from "../vault/FsVault";
import type { CliIo } from "./io";

/**
 * The plugin's settings for a vault: its `data.json` in the vault's plugin folder read through the
 * plugin's own loadSettings (defaults when there is none). Every command starts from these, so
 * `search` and `agent`, which share one index file, index the same notes.
 */
export async function loadVaultSettings(vault: FsVault, io: CliIo): Promise<CopilotSettings> {
  const store = new FsDataStore(pluginDataFolder(vault.root, vault.configDir));
  const text = await store.read("data.json");
  let raw: unknown = null;
  if (text !== null) {
    try {
      raw = JSON.parse(text);
    } catch {
      io.stderr("vault-copilot: the plugin's data.json is not valid JSON; the default settings are used.\n");
    }
  }
  const loaded = loadSettings(raw, DEFAULT_SETTINGS);
  for (const problem of loaded.problems) io.stderr(`vault-copilot: ${problem.text}\n`);
  return loaded.settings;
}

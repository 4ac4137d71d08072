import { ToolFailureError } from "../../errorMessage";
import type { CopilotSettings } from "../../settings/settingsSchema";
import { toNotePath, VaultPathError } from "../../vault/vaultPath";
import type { VaultPort } from "../../vault/VaultPort";
import { isTextFile } from "../notes/noteText";
import { requireVault } from "../requireVault";
import type { ToolDependencies } from "../toolDependencies";
import { EditHistory } from "./EditHistory";

/** The name of the setting that lets edits into hidden folders, as the settings tab shows it. */
export const ALLOW_HIDDEN_FOLDERS_SETTING_NAME = "Allow edits in hidden folders";

/**
 * The vault path an edit tool may write, or throws with the reason: outside the vault or in its
 * config folder (the path rule), not text, or hidden. Obsidian hides every file and folder whose
 * name starts with "." and the user never sees them, yet they hold things that act: another
 * profile's plugin settings, `.vscode/tasks.json`, `.github/workflows/`. So edits stay out of
 * them unless the user switches `allowWritesToHiddenFolders` on. Both Obsidian and the CLI pass here.
 */
export function editablePath(vault: VaultPort, input: string, settings: Pick<CopilotSettings, "allowWritesToHiddenFolders">): string {
  const path = toNotePath(input, vault.configDir);
  const hidden = path.split("/").find((segment) => segment.startsWith("."));
  if (hidden !== undefined && !settings.allowWritesToHiddenFolders) {
    throw new VaultPathError(
      input,
      `"${hidden}" is hidden (its name starts with "."), and edits there are refused unless the user switches on "${ALLOW_HIDDEN_FOLDERS_SETTING_NAME}" in the settings`,
    );
  }
  if (!isTextFile(path)) {
    throw new ToolFailureError(`"${path}" is not a text note; edits are limited to Markdown and other text files (.md, .txt, .canvas, ...).`, { kind: "not-text", values: { path } });
  }
  return path;
}

/**
 * What an edit tool needs at call time. Without a history from the wiring, the tool keeps one in
 * memory for its lifetime (the wiring normally hands in one shared with the undo command).
 */
export function editContext(dependencies: ToolDependencies): () => ToolDependencies & { vault: VaultPort; editHistory: EditHistory } {
  let fallback: EditHistory | undefined;
  return () => {
    const vault = requireVault(dependencies);
    const editHistory = dependencies.editHistory ?? (fallback ??= new EditHistory(vault));
    return { ...dependencies, vault, editHistory };
  };
}

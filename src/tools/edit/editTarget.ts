import { toNotePath } from "../../vault/vaultPath";
import type { VaultPort } from "../../vault/VaultPort";
import { isTextFile } from "../notes/noteText";
import { requireVault } from "../requireVault";
import type { ToolDependencies } from "../toolDependencies";
import { EditHistory } from "./EditHistory";

/** The vault path an edit tool may write, or throws with the reason (outside the vault, not text). */
export function editablePath(vault: VaultPort, input: string): string {
  const path = toNotePath(input, vault.configDir);
  if (!isTextFile(path)) {
    throw new Error(`"${path}" is not a text note; edits are limited to Markdown and other text files (.md, .txt, .canvas, ...).`);
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

import { baseName, toVaultPath } from "../vault/vaultPath";
import { VaultFileExistsError, type VaultPort } from "../vault/VaultPort";

/** The text of a new project note holding `folder`: the folder in its properties, and a line to put instructions under. */
export function projectNoteForFolder(folder: string): string {
  return ["---", "folders:", `  - ${JSON.stringify(folder)}`, "---", "", "Instructions for the project's chats go here.", ""].join("\n");
}

/**
 * "New project from folder": a project note named after the folder, in the projects folder,
 * holding that folder. A name already taken gets " 2", " 3", … (no note is overwritten). Returns
 * the project's name and its note's path.
 */
export async function createProjectFromFolder(vault: VaultPort, projectsFolder: string, folder: string): Promise<{ name: string; path: string }> {
  const where = toVaultPath(projectsFolder, vault.configDir);
  const held = toVaultPath(folder, vault.configDir);
  const base = baseName(held);
  for (let count = 1; count < 1000; count++) {
    const name = count === 1 ? base : `${base} ${count}`;
    const path = `${where}/${name}.md`;
    if (await vault.stat(path)) continue;
    try {
      await vault.create(path, projectNoteForFolder(held));
      return { name, path };
    } catch (error) {
      if (!(error instanceof VaultFileExistsError)) throw error;
    }
  }
  throw new Error(`Every name from "${base}" to "${base} 999" is taken in ${where}/, so no project note was made.`);
}

import { toVaultPath } from "../vault/vaultPath";
import type { VaultPort } from "../vault/VaultPort";

/** A few prompts to start from, written into the prompts folder only when the user asks. */
export const STARTER_PROMPTS: Readonly<Record<string, string>> = {
  Summarize: [
    "---",
    "description: Summarize the open note in a few bullet points",
    "command: true",
    "---",
    "Summarize {{activeNote}} in at most five bullet points. Keep the note's own terms, and link the notes it relies on.",
    "",
  ].join("\n"),
  "Fix grammar": [
    "---",
    "description: Fix spelling and grammar in the selection",
    "edit: true",
    "command: true",
    "menu: true",
    "---",
    "Fix the spelling, grammar and punctuation of {{selection}}. Keep its meaning, its tone, its language and its Markdown.",
    "",
  ].join("\n"),
  Translate: [
    "---",
    "description: Translate the selection into English",
    "edit: true",
    "menu: true",
    "---",
    "Translate {{selection}} into English. Keep its Markdown, links and line breaks.",
    "",
  ].join("\n"),
  "Make a table": [
    "---",
    "description: Turn the selection into a Markdown table",
    "edit: true",
    "menu: true",
    "---",
    "Turn {{selection}} into a Markdown table with a header row. Keep every fact it holds; add nothing.",
    "",
  ].join("\n"),
};

/** Writes the starter prompts that are not there yet; returns the paths it created. */
export async function createStarterPrompts(vault: VaultPort, folder: string): Promise<string[]> {
  const base = toVaultPath(folder, vault.configDir);
  const created: string[] = [];
  for (const [name, text] of Object.entries(STARTER_PROMPTS)) {
    const path = `${base}/${name}.md`;
    if (await vault.stat(path)) continue;
    await vault.create(path, text);
    created.push(path);
  }
  return created;
}

import { errorMessage } from "../errorMessage";
import { NotePropertiesError, readNoteProperties } from "../vault/noteProperties";
import { unreadableNote, type NoteLoadProblem } from "../vault/noteLoadProblem";
import { chatModeList, isChatMode } from "../settings/chatModes";
import type { ChatMode } from "../settings/settingsSchema";
import { toVaultPath } from "../vault/vaultPath";
import type { VaultPort } from "../vault/VaultPort";

/**
 * A prompt the user keeps as a note in the prompts folder: the note's name is the command's name,
 * its body the prompt (with variables, see fillPrompt.ts), its frontmatter how it runs:
 *
 *   description: Fix spelling and grammar     shown in the slash menu and the command palette
 *   mode: chat | vault-qa | agent             the chat mode it runs in (default: the chat's)
 *   model: gpt-4.1-mini                       the model it runs with (default: the chat's)
 *   edit: true                                its answer replaces the selection (shown as a diff)
 *   command: true                             listed in the command palette
 *   menu: true                                listed in the editor's context menu
 */
export interface CustomPrompt {
  name: string;
  path: string;
  description: string;
  mode?: ChatMode;
  model?: string;
  edit: boolean;
  command: boolean;
  menu: boolean;
  body: string;
}

/** A prompt note that could not be read: reported by path; the other prompts still load. */
export class PromptNoteError extends Error {
  constructor(
    readonly path: string,
    reason: string,
    /** The reason's case, for a view in another language. */
    readonly problem: NoteLoadProblem,
  ) {
    super(`The prompt "${path}" was not loaded: ${reason}.`);
    this.name = "PromptNoteError";
  }
}

export function parsePromptNote(path: string, text: string): CustomPrompt {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
  const { properties, body } = splitFrontmatter(path, text);
  const mode = properties.mode;
  if (mode !== undefined && !isChatMode(mode)) {
    throw new PromptNoteError(path, `its mode ${JSON.stringify(mode)} is not one of ${chatModeList()}`, { code: "mode-invalid", mode: JSON.stringify(mode), modes: chatModeList() });
  }
  const model = properties.model;
  if (model !== undefined && (typeof model !== "string" || model.trim() === "")) throw new PromptNoteError(path, "its model is not a name", { code: "model-not-name" });
  if (body.trim() === "") throw new PromptNoteError(path, "it has no prompt text", { code: "no-prompt-text" });
  return {
    name,
    path,
    description: typeof properties.description === "string" ? properties.description : "",
    ...(isChatMode(mode) ? { mode } : {}),
    ...(typeof model === "string" ? { model: model.trim() } : {}),
    edit: flag(path, properties, "edit"),
    command: flag(path, properties, "command"),
    menu: flag(path, properties, "menu"),
    body: body.trim(),
  };
}

/** Every prompt note in the folder (and its subfolders), by name; broken ones reported, not thrown. */
export async function loadPrompts(vault: VaultPort, folder: string): Promise<{ prompts: CustomPrompt[]; problems: PromptNoteError[] }> {
  const prefix = `${toVaultPath(folder, vault.configDir)}/`;
  const prompts: CustomPrompt[] = [];
  const problems: PromptNoteError[] = [];
  for (const path of (await vault.listNotes()).filter((note) => note.startsWith(prefix))) {
    try {
      prompts.push(parsePromptNote(path, await vault.read(path)));
    } catch (error) {
      problems.push(error instanceof PromptNoteError ? error : new PromptNoteError(path, errorMessage(error), unreadableNote(error)));
    }
  }
  prompts.sort((left, right) => left.name.localeCompare(right.name));
  return { prompts, problems };
}

/** The prompt a name means: exactly, else ignoring case. */
export function findPrompt(prompts: readonly CustomPrompt[], name: string): CustomPrompt | undefined {
  return prompts.find((prompt) => prompt.name === name) ?? prompts.find((prompt) => prompt.name.toLowerCase() === name.toLowerCase());
}

function splitFrontmatter(path: string, text: string): { properties: Record<string, unknown>; body: string } {
  try {
    return readNoteProperties(text);
  } catch (error) {
    if (error instanceof NotePropertiesError) throw new PromptNoteError(path, error.reason, error.problem);
    throw error;
  }
}

function flag(path: string, properties: Record<string, unknown>, key: string): boolean {
  const value = properties[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new PromptNoteError(path, `its "${key}" is not true or false`, { code: "not-true-or-false", key });
  return value;
}

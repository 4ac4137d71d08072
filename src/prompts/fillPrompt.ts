import { folderChip, noteChip, selectionChip, tagChip } from "../chat/chipArtifacts";
import type { ContextChip } from "../chat/chatTypes";
import { formatDate, wallTimeAt } from "../time/zonedTime";
import { findNote } from "../tools/notes/noteLookup";
import type { VaultPort } from "../vault/VaultPort";
import type { CustomPrompt } from "./customPrompt";

/** What a prompt's variables are filled from. */
export interface PromptInputs {
  /** The selected text, with its note and lines when known. */
  selection?: { text: string; path?: string; fromLine?: number; toLine?: number };
  /** The note open in the editor. */
  activeNotePath?: string | null;
  now: number;
  timeZone: string;
}

/** A prompt ready to send: the message, and what its variables attach. */
export interface FilledPrompt {
  /** The message (L5): each variable replaced by its value, or by a short reference to what it attached. */
  message: string;
  /** What the variables attach: read into artifacts like chips (caps and problems included), sent before the message. */
  chips: ContextChip[];
  /** Variables with nothing behind them, said to the user: the sentence, and its case for a view that says it in its own language. */
  notices: { text: string; reason: PromptNotice }[];
}

/** Why a prompt cannot run at a place, or what one of its variables found nothing behind. */
export type PromptNotice =
  | { code: "needs-selection"; prompt: string }
  | { code: "no-selection" }
  | { code: "no-active-note" }
  | { code: "no-note"; link: string }
  | { code: "empty-folder"; folder: string };

/** The instruction an edit prompt's message ends with: its answer replaces the selection as it is. */
export const EDIT_ANSWER_INSTRUCTION = "Reply with the rewritten text only: no introduction, no explanation, no code fence around it.";

const VARIABLE = /\{\{\s*(selection|activeNote|date|\[\[([^\]]+)\]\]|#([^\s{}]+)|([^{}]*\/))\s*\}\}/g;

/**
 * Fills a prompt's variables: `{{selection}}`, `{{activeNote}}`, `{{[[Note name]]}}`, `{{#tag}}`
 * (the notes with the tag), `{{folder/}}` (the notes in it) and `{{date}}`. Text the variables
 * bring (notes, the selection) is attached as context, ahead of the question, escaped as data like
 * any attachment, never pasted into the question itself: the question stays last and a note
 * cannot pose as the user. Unknown `{{…}}` are left as written.
 */
export async function fillPrompt(prompt: Pick<CustomPrompt, "body" | "edit">, vault: VaultPort, inputs: PromptInputs): Promise<FilledPrompt> {
  const chips: ContextChip[] = [];
  const notices: FilledPrompt["notices"] = [];
  const tell = (text: string, reason: PromptNotice) => notices.push({ text, reason });
  const attach = (chip: ContextChip) => {
    if (!chips.some((existing) => existing.id === chip.id)) chips.push(chip);
  };
  let notes: string[] | undefined;
  const allNotes = async () => (notes ??= await vault.listNotes());

  const replacements: string[] = [];
  for (const match of prompt.body.matchAll(VARIABLE)) {
    const [, variable = "", link, tag, folder] = match;
    replacements.push(await fillOne(variable, link, tag, folder));
  }
  let index = 0;
  const filled = prompt.body.replace(VARIABLE, () => replacements[index++] ?? "");
  const message = prompt.edit ? `${filled}\n\n${EDIT_ANSWER_INSTRUCTION}` : filled;
  return { message, chips, notices };

  async function fillOne(variable: string, link: string | undefined, tag: string | undefined, folder: string | undefined): Promise<string> {
    if (variable === "date") return formatDate(wallTimeAt(inputs.now, inputs.timeZone));
    if (variable === "selection") {
      const selection = inputs.selection;
      if (!selection || selection.text === "") {
        tell("No text is selected, so {{selection}} is empty.", { code: "no-selection" });
        return "";
      }
      const lines = selection.text.split("\n").length;
      const from = selection.fromLine ?? 1;
      attach(selectionChip(selection.path ?? "", selection.text, from, selection.toLine ?? from + lines - 1));
      return "the selected text (attached above)";
    }
    if (variable === "activeNote") {
      if (!inputs.activeNotePath) {
        tell("No note is open, so {{activeNote}} is empty.", { code: "no-active-note" });
        return "";
      }
      attach(noteChip(inputs.activeNotePath));
      return `the note ${wikilink(inputs.activeNotePath)} (attached above)`;
    }
    if (link !== undefined) {
      try {
        const { path } = await findNote(vault, link);
        attach(noteChip(path));
        return `${wikilink(path)} (attached above)`;
      } catch {
        tell(`There is no note "${link}", so {{[[${link}]]}} attached nothing.`, { code: "no-note", link });
        return `[[${link}]]`;
      }
    }
    if (tag !== undefined) {
      attach(tagChip(tag));
      return `the notes tagged #${tag} (attached above)`;
    }
    const name = (folder ?? "").replace(/\/+$/, "").trim();
    if (name !== "" && !(await allNotes()).some((path) => path.startsWith(`${name}/`))) {
      tell(`There are no notes in "${name}/", so {{${name}/}} attached nothing.`, { code: "empty-folder", folder: name });
      return `${name}/`;
    }
    attach(folderChip(name));
    return `the notes in ${name === "" ? "the vault" : `${name}/`} (attached above)`;
  }
}

function wikilink(path: string): string {
  return `[[${path.replace(/\.md$/, "")}]]`;
}

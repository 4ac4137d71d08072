import type { RunApprovals } from "../ports/approval";
import type { CustomPrompt } from "./customPrompt";
import { fillPrompt, type PromptInputs, type PromptNotice } from "./fillPrompt";
import { withSelectionEdit } from "./selectionEdit";
import type { ToolRegistry } from "../tools/ToolRegistry";
import type { VaultPort } from "../vault/VaultPort";
import type { ChatController } from "../chat/ChatController";

/** A prompt to run: one of the user's, or an instruction typed for "Edit selection with Copilot". */
export type PromptToRun = Pick<CustomPrompt, "name" | "body" | "edit" | "mode" | "model"> & {
  /** What the user's message shows (the instruction as typed); by default the prompt's name and its note (see `promptShown`). */
  shown?: string;
};

/** Where a prompt runs: the note open in the editor and its selection, when there are. */
export interface PromptPlace {
  /** The note in the editor (or the CLI's --note); null when none. */
  notePath: string | null;
  /** The selected text and its 1-based lines in that note. */
  selection?: { text: string; fromLine?: number; toLine?: number };
}

export interface PromptRunParts {
  vault: VaultPort;
  registry: ToolRegistry;
  /** The time limit of the selection's replacement (the tools' time limit). */
  toolTimeoutMs: number;
  now: number;
  timeZone: string;
  /** Asked about the selection's replacement instead of the run's own approvals (the CLI's --yes covers it alone). */
  replacementApprovals?: RunApprovals;
  /** Told what the prompt could not fill (a note it names that is missing): the English sentence, and its case for a view in another language. */
  notify: (message: string, reason: PromptNotice) => void;
}

/**
 * Runs a prompt in a chat, the same way in the view and the CLI: its variables filled from the
 * place (what they attach goes with the message as context), in its own mode and model when it
 * names them. An edit prompt's answer then replaces the selection through `replaceInFile` (a
 * diff to accept, the undo history). Resolves once the reply ended; an edit prompt without a
 * selection is refused before anything is sent (false).
 */
export async function runPromptInChat(controller: ChatController, prompt: PromptToRun, place: PromptPlace, parts: PromptRunParts): Promise<boolean> {
  const selected = place.selection?.text ?? "";
  const missing = missingSelection(prompt, place);
  if (missing) {
    parts.notify(missing, { code: "needs-selection", prompt: prompt.name });
    return false;
  }
  const inputs: PromptInputs = {
    ...(place.selection ? { selection: { ...place.selection, ...(place.notePath ? { path: place.notePath } : {}) } } : {}),
    activeNotePath: controller.getState().activeNote?.path ?? place.notePath,
    now: parts.now,
    timeZone: parts.timeZone,
  };
  const filled = await fillPrompt(prompt, parts.vault, inputs);
  for (const notice of filled.notices) parts.notify(notice.text, notice.reason);
  const replaceInFile = parts.registry.getAllTools().find((definition) => definition.metadata.id === "replaceInFile")?.tool;
  const edit = prompt.edit && place.notePath && replaceInFile ? { path: place.notePath, text: selected, tool: replaceInFile } : null;
  const notePath = place.notePath ?? inputs.activeNotePath ?? null;
  await controller.send(filled.message, {
    shown: prompt.shown ?? promptShown(prompt.name, notePath),
    chips: filled.chips,
    ...(prompt.mode ? { mode: prompt.mode } : {}),
    ...(prompt.model ? { model: prompt.model } : {}),
    ...(edit ? { wrapRunner: (runner) => withSelectionEdit(runner, edit, edit.tool, parts.toolTimeoutMs, parts.replacementApprovals), rewrite: true as const } : {}),
  });
  return true;
}

/** Why an edit prompt cannot run at this place (no note, or no text selected in it), or null. */
export function missingSelection(prompt: Pick<PromptToRun, "name" | "edit">, place: PromptPlace): string | null {
  if (!prompt.edit || (place.notePath && (place.selection?.text ?? "") !== "")) return null;
  return `select the text "${prompt.name}" should rewrite in a note first.`;
}

/**
 * What the user's message shows for a prompt they ran: "/Summarize · Deep Work", the prompt's name
 * and the note it ran on (its name alone), not the text it was filled into.
 */
export function promptShown(name: string, notePath: string | null): string {
  const note = notePath?.slice(notePath.lastIndexOf("/") + 1).replace(/\.md$/i, "");
  return note ? `/${name} · ${note}` : `/${name}`;
}

import type { Editor } from "obsidian";
import type { PromptPlace } from "../prompts/runPrompt";

/**
 * Where a prompt runs, read from an editor: its note and selection, with the selection's 1-based
 * lines. A selection that ends at the very start of a line (whole lines selected) ends on the line
 * before it.
 */
export function editorPlace(editor: Editor, notePath: string | null): PromptPlace {
  const text = editor.getSelection();
  if (text === "") return { notePath };
  const from = editor.getCursor("from");
  const to = editor.getCursor("to");
  const toLine = to.ch === 0 && to.line > from.line ? to.line : to.line + 1;
  return { notePath, selection: { text, fromLine: from.line + 1, toLine } };
}

/** "Notes/Draft.md, lines 3–4" (or "line 3"): where a selection is, as the Edit selection box names it. */
export function placeName(place: PromptPlace): string {
  const selection = place.selection;
  const note = place.notePath ?? "the note";
  if (!selection?.fromLine) return note;
  const to = selection.toLine ?? selection.fromLine;
  return to === selection.fromLine ? `${note}, line ${selection.fromLine}` : `${note}, lines ${selection.fromLine}–${to}`;
}

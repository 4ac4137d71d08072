import { z } from "zod";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { NoteLookup, notePathForWrite } from "../notes/noteLookup";
import type { SimpleTool } from "../SimpleTool";
import { editablePath, editContext } from "./editTarget";
import { findOccurrences, lineOf, nearMatchLines } from "./findMatches";
import { refuseLoneSurrogates } from "./wellFormedText";
import { describeEditOutcome, EditPlanError, proposeAndApplyEdit, type EditOutcome } from "./proposeAndApplyEdit";

const schema = z.object({
  path: refuseLoneSurrogates(z.string().min(1)).describe('Vault path of the note to edit, e.g. "Projects/Plan.md" (".md" may be left out).'),
  oldText: refuseLoneSurrogates(z.string().min(1)).describe("The exact text to replace, copied from the note (whitespace and line breaks included). It must occur exactly once: add surrounding lines if it is not unique."),
  newText: refuseLoneSurrogates(z.string()).describe("The text to put in its place (empty to delete oldText)."),
});

export const replaceInFileTool: BuiltinToolEntry = {
  metadata: {
    id: "replaceInFile",
    displayName: "Replace in note",
    description: "Lets the model change part of a note. You see the diff and accept or reject it first.",
    category: "file",
    enabledByDefault: true,
    editsNotes: true,
    requiresVault: true,
    customPromptInstructions:
      "Use replaceInFile for targeted changes to an existing note: read it with readNote first and copy oldText exactly, " +
      "with enough surrounding text to occur only once. If it reports no match or several matches, nothing was changed: " +
      "re-read the note and retry with more context. Use writeToFile only to create a note or rewrite all of it. " +
      "The user approves each edit; if they reject it, do not retry the same edit.",
    wording: { pending: "Would like to edit a note", running: "Editing a note", done: "Edited a note" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, EditOutcome> => {
    const context = editContext(dependencies);
    return {
      name: "replaceInFile",
      description:
        "Replaces one exact occurrence of oldText with newText in a note, after the user approves the diff. Zero or several matches change nothing and are reported with line numbers.",
      schema,
      func: async ({ path: input, oldText, newText }, call) => {
        const edit = context();
        const path = await notePathForWrite(edit.vault, editablePath(edit.vault, input, edit.getSettings()));
        const lookup = await NoteLookup.of(edit.vault);
        return proposeAndApplyEdit(edit, {
          toolId: "replaceInFile",
          path,
          call,
          plan: (current) => {
            if (current === null) {
              const similar = lookup.resolve(input) ?? lookup.suggest(input)[0];
              throw new EditPlanError(
                `There is no note at "${path}".${similar ? ` Did you mean "${similar}"?` : ""} ` +
                  "Use writeToFile to create a note, or getFileTree to find the right path.",
                { kind: "note-not-found", values: { note: path } },
              );
            }
            return replaceOnce(path, current, oldText, newText);
          },
        });
      },
      formatForModel: describeEditOutcome,
    };
  },
};

/** `current` with its one occurrence of `oldText` replaced, or an EditPlanError saying why not. */
export function replaceOnce(path: string, current: string, oldText: string, newText: string): string {
  let needle = oldText;
  let replacement = newText;
  let matches = findOccurrences(current, needle);
  // Models write "\n"; a note saved on Windows may use "\r\n". Match it the note's way.
  if (matches.length === 0 && current.includes("\r\n") && !oldText.includes("\r\n")) {
    needle = oldText.replace(/\n/g, "\r\n");
    replacement = newText.replace(/\r?\n/g, "\r\n");
    matches = findOccurrences(current, needle);
  }
  if (matches.length === 1) {
    const at = matches[0] ?? 0;
    return current.slice(0, at) + replacement + current.slice(at + needle.length);
  }
  if (matches.length === 0) {
    const near = nearMatchLines(current, oldText);
    throw new EditPlanError(
      `oldText was not found in "${path}", so nothing was changed.` +
        (near.length > 0
          ? ` Its first line appears, with different spacing or letter case, at line${near.length > 1 ? "s" : ""} ${near.join(", ")}.`
          : "") +
        " Read the note again with readNote and copy the text exactly.",
      { kind: "no-match", values: { path } },
    );
  }
  const lines = [...new Set(matches.map((offset) => lineOf(current, offset)))];
  throw new EditPlanError(
    `oldText occurs ${matches.length} times in "${path}" (at line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}), so nothing was changed. ` +
      "Include more of the surrounding text in oldText so that it matches exactly once.",
    { kind: "several-matches", values: { path, count: matches.length } },
  );
}

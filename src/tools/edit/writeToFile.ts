import { z } from "zod";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import type { SimpleTool } from "../SimpleTool";
import { notePathForWrite } from "../notes/noteLookup";
import { editablePath, editContext } from "./editTarget";
import { refuseLoneSurrogates } from "./wellFormedText";
import { describeEditOutcome, proposeAndApplyEdit, type EditOutcome } from "./proposeAndApplyEdit";

const schema = z.object({
  path: refuseLoneSurrogates(z.string().min(1)).describe('Vault path of the note, e.g. "Projects/Plan.md" (".md" may be left out). Missing folders are created.'),
  content: refuseLoneSurrogates(z.string()).describe("The note's complete new text (Markdown). It replaces everything in the note."),
});

export const writeToFileTool: BuiltinToolEntry = {
  metadata: {
    id: "writeToFile",
    displayName: "Write note",
    description: "Lets the model create a note or rewrite a whole note. You see the diff and accept or reject it first.",
    category: "file",
    enabledByDefault: true,
    editsNotes: true,
    requiresVault: true,
    customPromptInstructions:
      "Use writeToFile to create a new note, or to rewrite a note completely when asked to. Give the full text: it " +
      "replaces the note. For changes to part of an existing note use replaceInFile instead. The user approves each " +
      "write; if they reject it, do not retry the same write.",
    wording: { pending: "Would like to write a note", running: "Writing a note", done: "Wrote a note" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, EditOutcome> => {
    const context = editContext(dependencies);
    return {
      name: "writeToFile",
      description: "Creates a note, or replaces a note's whole text, after the user approves the diff.",
      schema,
      func: async ({ path, content }, call) => {
        const edit = context();
        // A name that is an existing note's in another Unicode form (macOS writes NFD) is that note: no look-alike twin.
        const target = await notePathForWrite(edit.vault, editablePath(edit.vault, path, edit.getSettings()));
        return proposeAndApplyEdit(edit, { toolId: "writeToFile", path: target, call, plan: () => content });
      },
      formatForModel: describeEditOutcome,
    };
  },
};

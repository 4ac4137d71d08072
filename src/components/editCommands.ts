import { Notice, type Plugin } from "obsidian";
import type { EditHistory } from "../tools/edit/EditHistory";
import { UNDO_LAST_EDIT_COMMAND_NAME } from "../tools/edit/proposeAndApplyEdit";
import { errorMessage } from "../errorMessage";

/** Adds the "undo the agent's last edit" command over the history the edit tools record into. */
export function registerEditCommands(plugin: Plugin, history: EditHistory): void {
  plugin.addCommand({
    id: "undo-last-agent-edit",
    name: UNDO_LAST_EDIT_COMMAND_NAME,
    callback: () => {
      void undoLastEdit(history);
    },
  });
}

/** Undoes the newest edit and tells the user what happened, in a notice. */
export async function undoLastEdit(history: EditHistory): Promise<string> {
  let message: string;
  try {
    message = (await history.undoLast()).message;
  } catch (error) {
    message = `Could not undo the agent's last edit: ${errorMessage(error)}`;
  }
  new Notice(message);
  return message;
}

import type { Plugin } from "obsidian";
import type { CopilotView } from "./CopilotView";
import { t } from "../i18n/t";

/**
 * The chat's commands: "Open chat", and "Add selection to chat" (offered only in an editor with
 * a selection: the selected lines go to the chat as a chip with their note and line numbers).
 */
export function registerChatCommands(plugin: Plugin, openChatView: () => Promise<CopilotView | null>): void {
  plugin.addCommand({ id: "open-chat", name: t("command.openChat"), callback: () => void openChatView() });
  plugin.addCommand({
    id: "add-selection-to-chat",
    name: t("command.addSelection"),
    editorCheckCallback: (checking, editor, context) => {
      const file = context.file;
      const text = editor.getSelection();
      if (!file || !text) return false;
      if (checking) return true;
      const from = editor.getCursor("from").line + 1;
      const to = editor.getCursor("to").line + 1;
      void openChatView().then((view) => view?.addSelection(file.path, text, from, to));
      return true;
    },
  });
}

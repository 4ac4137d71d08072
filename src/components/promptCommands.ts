import { MarkdownView, Notice, type Editor, type Plugin } from "obsidian";
import { errorMessage } from "../errorMessage";
import { afterNextPaint } from "../ports/afterNextPaint";
import type { CustomPrompt } from "../prompts/customPrompt";
import type { PromptLibrary } from "../prompts/PromptLibrary";
import type { PromptPlace } from "../prompts/runPrompt";
import { createStarterPrompts } from "../prompts/starterPrompts";
import type { VaultPort } from "../vault/VaultPort";
import type { CopilotView, PromptToRun } from "./CopilotView";
import { EditInstructionModal } from "./EditInstructionModal";
import { editorPlace } from "./editorPlace";
import { t } from "../i18n/t";

export interface PromptCommandParts {
  prompts: PromptLibrary;
  vault: VaultPort;
  promptsFolder: () => string;
  /** Shows the chat view (opening it when needed); the prompt runs in its chat. */
  openChatView: () => Promise<CopilotView | null>;
  /** The chat view when it is open (not opening it): asked whether an edit may start a chat of its own there now. */
  findChatView?: () => CopilotView | null;
}

/** The id prefix of the commands made from prompts (`command: true`). */
const PROMPT_COMMAND_PREFIX = "prompt:";

/**
 * The commands around the user's prompts: "Edit selection with Copilot" (a typed instruction),
 * "Create starter prompts", one command per prompt marked `command: true` (kept in step with the
 * prompts folder), and the editor's context menu entries for prompts marked `menu: true`.
 */
export function registerPromptCommands(plugin: Plugin, parts: PromptCommandParts): void {
  /**
   * A prompt run from the palette or the editor's menu. An edit prompt runs as an exchange of its
   * own (a new chat, on the selection as it was when asked), never appended to the chat that is open;
   * any other runs in that chat.
   */
  const run = (prompt: PromptToRun, place: PromptPlace | null) => {
    if (prompt.edit && place && refusedOwnChat()) return;
    void parts.openChatView().then((view) => (prompt.edit && place ? view?.runPromptInOwnChat(prompt, place) : view?.runPrompt(prompt)));
  };
  /** Says why an edit cannot start its own chat now (the open chat still answers, or would be lost), before anything is typed. */
  const refusedOwnChat = () => {
    const refusal = parts.findChatView?.()?.ownChatRefusal() ?? null;
    if (refusal) new Notice(t("notice.prefixed", { message: refusal }));
    return refusal !== null;
  };
  const askForEdit = (editor: Editor, notePath: string | null) => {
    if (refusedOwnChat()) return;
    const place = editorPlace(editor, notePath);
    new EditInstructionModal(plugin.app, place, (instruction) =>
      // A rewrite needs no tools: it runs in Chat, whatever mode the chat is in.
      run({ name: "Edit selection", body: `${instruction}\n\n{{selection}}`, edit: true, mode: "chat", shown: instruction }, place),
    ).open();
  };

  plugin.addCommand({
    id: "edit-selection",
    name: t("command.editSelection"),
    editorCheckCallback: (checking, editor, context) => {
      if (!editor.getSelection()) return false;
      if (checking) return true;
      askForEdit(editor, context.file?.path ?? null);
      return true;
    },
  });
  plugin.addCommand({
    id: "create-starter-prompts",
    name: t("command.createStarterPrompts"),
    callback: () => {
      createStarterPrompts(parts.vault, parts.promptsFolder()).then(
        (created) => new Notice(created.length > 0 ? t("notice.promptsCreated", { count: created.length, folder: parts.promptsFolder() }) : t("notice.promptsThere")),
        (error: unknown) => new Notice(t("notice.promptsFailed", { reason: errorMessage(error) })),
      );
    },
  });

  // One command per prompt that asks for it, made again whenever the prompts change.
  let registered: string[] = [];
  const syncCommands = (prompts: readonly CustomPrompt[]) => {
    for (const id of registered) plugin.removeCommand(id);
    registered = [];
    for (const prompt of prompts.filter((entry) => entry.command)) {
      const id = `${PROMPT_COMMAND_PREFIX}${prompt.name}`;
      plugin.addCommand({
        id,
        name: t("command.runPrompt", { name: prompt.name }),
        callback: () => {
          const editor = plugin.app.workspace.getActiveViewOfType(MarkdownView);
          run(prompt, editor ? editorPlace(editor.editor, editor.file?.path ?? null) : null);
        },
      });
      registered.push(id);
    }
  };
  plugin.register(parts.prompts.subscribe(syncCommands));
  // Read once the workspace is ready and its next frame drawn: the commands can wait, a chat view opening cannot.
  const unloaded = new AbortController();
  plugin.register(() => unloaded.abort());
  plugin.app.workspace.onLayoutReady(() => afterNextPaint(() => void parts.prompts.list().then(syncCommands), unloaded.signal));

  // The menu is built synchronously: it shows the prompts as last read.
  let menuPrompts: CustomPrompt[] = [];
  plugin.register(parts.prompts.subscribe((prompts) => (menuPrompts = prompts.filter((prompt) => prompt.menu))));
  plugin.registerEvent(
    plugin.app.workspace.on("editor-menu", (menu, editor, info) => {
      if (!editor.getSelection()) return;
      const notePath = info.file?.path ?? null;
      menu.addItem((item) =>
        item
          .setTitle(t("command.editSelection"))
          .setIcon("bot-message-square")
          .onClick(() => askForEdit(editor, notePath)),
      );
      for (const prompt of menuPrompts) menu.addItem((item) => item.setTitle(t("menu.prompt", { name: prompt.name })).onClick(() => run(prompt, editorPlace(editor, notePath))));
    }),
  );
}

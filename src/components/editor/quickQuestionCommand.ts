import type { EditorView } from "@codemirror/view";
import { Notice, type Editor, type Plugin } from "obsidian";
import { answeredRunner } from "../../chat/answeredRunner";
import type { ChatRunner } from "../../chat/ChatController";
import { questionChips, replaceSelectionWithAnswer, type QuestionPlace } from "../../editor/quickQuestion";
import type { EditOutcome } from "../../tools/edit/proposeAndApplyEdit";
import type { RunApprovals } from "../../ports/approval";
import type { AnySimpleTool } from "../../tools/SimpleTool";
import type { VaultPort } from "../../vault/VaultPort";
import type { CopilotView } from "../CopilotView";
import { modalEditApproval, modalToolCallApproval } from "../ApprovalModal";
import { QuickQuestionPanel, type CursorCoordinates } from "./QuickQuestionPanel";
import { t } from "../../i18n/t";

export interface QuickQuestionParts {
  vault: VaultPort;
  /** The chat's runner in Chat mode with the default model. */
  createRunner(): ChatRunner;
  /** The registry's replaceInFile, the tool every edit of a note goes through. */
  replaceInFile(): AnySimpleTool | undefined;
  toolTimeoutMs(): number;
  openChatView(): Promise<CopilotView | null>;
  /** Who approves Replace selection's diff: Obsidian's edit dialog unless given (tests hand in their own). */
  approvals?: (app: Plugin["app"]) => RunApprovals;
}

/**
 * "Ask a quick question at the cursor": opens the small prompt at the cursor of the note being
 * edited. No default hotkey (Obsidian's guidelines leave keys to the user: Settings → Hotkeys).
 */
export function registerQuickQuestion(plugin: Plugin, parts: QuickQuestionParts): void {
  let open: QuickQuestionPanel | null = null;
  plugin.register(() => open?.close());
  plugin.addCommand({
    id: "quick-question",
    name: t("command.quickQuestion"),
    editorCallback: (editor, context) => {
      const path = context.file?.path;
      if (!path) return;
      open?.close();
      open = new QuickQuestionPanel(
        {
          app: plugin.app,
          vault: parts.vault,
          createRunner: () => parts.createRunner(),
          replaceSelection: (place, answer) => replaceSelection(plugin, parts, place, answer),
          openInChat: async (place, question, answer, usage) => {
            const view = await parts.openChatView();
            const controller = view?.getController();
            if (!controller) throw new Error("the chat view did not open");
            if (controller.getState().running) throw new Error("the chat is answering another question; try again when it is done");
            await controller.newChat();
            await controller.send(question, { chips: questionChips(place), mode: "chat", wrapRunner: () => answeredRunner(answer, usage) });
          },
        },
        editor,
        placeAt(editor, path),
        cursorCoordinates(editor),
      );
    },
  });
}

/** The note and the selection (1-based lines) the question is asked at. */
function placeAt(editor: Editor, path: string): QuestionPlace {
  const text = editor.getSelection();
  if (!text) return { path, selection: null };
  return { path, selection: { text, fromLine: editor.getCursor("from").line + 1, toLine: editor.getCursor("to").line + 1 } };
}

/** Where the cursor is on screen, from the editor's CodeMirror view (Obsidian's `editor.cm`). */
function cursorCoordinates(editor: Editor): CursorCoordinates {
  const view = (editor as Editor & { cm?: EditorView }).cm;
  if (!view) return null;
  try {
    const coordinates = view.coordsAtPos(view.state.selection.main.head);
    return coordinates ? { left: coordinates.left, top: coordinates.top, bottom: coordinates.bottom } : null;
  } catch {
    // An editor that is not laid out (hidden, or a DOM without layout) cannot measure: the panel opens centred.
    return null;
  }
}

async function replaceSelection(plugin: Plugin, parts: QuickQuestionParts, place: Parameters<typeof replaceSelectionWithAnswer>[1], answer: string): Promise<void> {
  const tool = parts.replaceInFile();
  if (!tool) throw new Error("the edit tools are not loaded");
  const result = await replaceSelectionWithAnswer(tool, place, answer, { approvals: parts.approvals?.(plugin.app) ?? { ...modalEditApproval(plugin.app), ...modalToolCallApproval(plugin.app) }, timeoutMs: parts.toolTimeoutMs(), signal: new AbortController().signal });
  const outcome = result.output as EditOutcome | undefined;
  if (result.status === "ok" && outcome?.status === "applied") new Notice(t("quick.replaced", { path: place.path }));
  else if (outcome?.status !== "rejected") new Notice(t("quick.notReplaced", { reason: result.text.split("\n")[0] ?? "" }));
}

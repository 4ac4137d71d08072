import { Menu } from "obsidian";
import type { ChatController } from "../../chat/ChatController";
import { answerText, type AssistantMessage } from "../../chat/chatTypes";
import type { ChatHost } from "./ChatHost";
import type { PressPoint } from "./longPress";
import { t } from "../../i18n/t";

/** One thing to do with an answer: a button under it, and an item of its long-press menu. */
export interface AnswerAction {
  /** The button's accessible name and the menu item's title. */
  label: string;
  /** A Lucide icon name, as Obsidian's `setIcon` takes it. */
  icon: string;
  run: () => void;
}

/**
 * What can be done with a finished answer: Copy and Insert at cursor when it has text, and
 * Regenerate when it is the chat's last answer and no reply runs (`lastAndIdle`), unless it failed
 * without text (its error offers Retry instead).
 */
export function answerActions(host: ChatHost, controller: ChatController, message: AssistantMessage, lastAndIdle: boolean): AnswerAction[] {
  const text = answerText(message);
  const canRegenerate = lastAndIdle && (text !== "" || message.status !== "error");
  const actions: AnswerAction[] = [];
  if (text) {
    actions.push(
      { label: t("message.copy"), icon: "copy", run: () => void host.copyText(text).then(() => host.notify(t("message.copied"))) },
      {
        label: t("message.insert"),
        icon: "text-cursor-input",
        run: () => {
          if (!host.insertAtCursor(text)) host.notify(t("message.noEditor"));
        },
      },
    );
  }
  if (canRegenerate) actions.push({ label: t("message.regenerate"), icon: "refresh-cw", run: () => void controller.regenerate() });
  return actions;
}

/** The actions as Obsidian's menu at `at` (on a phone Obsidian shows it as a sheet from the bottom). Nothing when there are none. */
export function showAnswerMenu(actions: readonly AnswerAction[], at: PressPoint, doc: Document): void {
  if (actions.length === 0) return;
  const menu = new Menu();
  for (const action of actions) menu.addItem((item) => item.setTitle(action.label).setIcon(action.icon).onClick(action.run));
  menu.showAtPosition(at, doc);
}

import type { ChatNoteProblem } from "../history/ChatNoteWriter";
import type { PromptNotice } from "../prompts/fillPrompt";
import { ENGLISH } from "../i18n/languages";
import { currentLanguage, t } from "../i18n/t";

/**
 * Notices core code gives the view, in the interface's language: in English the sentence the
 * core wrote (the CLI prints the same), in another language the sentence for its case. Template
 * variables (`{{selection}}`), note names and paths stay as written.
 */

/** A prompt's refusal or what one of its variables found nothing behind. */
export function promptNoticeText(message: string, reason: PromptNotice): string {
  if (currentLanguage() === ENGLISH) return message;
  switch (reason.code) {
    case "needs-selection":
      return t("promptNotice.needs-selection", { prompt: reason.prompt });
    case "no-note":
      return t("promptNotice.no-note", { link: reason.link });
    case "empty-folder":
      return t("promptNotice.empty-folder", { folder: reason.folder });
    default:
      return t(`promptNotice.${reason.code}`);
  }
}

/** A problem keeping the chat in its note (the reason a save failed stays in the words it came in). */
export function chatNoteProblemText(message: string, reason: ChatNoteProblem | undefined): string {
  if (reason === undefined || currentLanguage() === ENGLISH) return message;
  switch (reason.code) {
    case "not-saved":
      return t("chatNote.not-saved", { reason: reason.reason });
    case "same-id":
      return t("chatNote.same-id", { path: reason.path, twin: reason.twin });
    default:
      return t(`chatNote.${reason.code}`, { old: reason.old, path: reason.path });
  }
}

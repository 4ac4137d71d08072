import type { ChatProblem } from "../app/openChat";
import type { ChipProblem } from "../chat/chipProblems";
import { errorMessage, toolFailureOf, type ToolFailure } from "../errorMessage";
import { ChatNoteParseError, type ChatNoteReason } from "../history/chatNoteFormat";
import type { ChatNoteProblem } from "../history/ChatNoteWriter";
import type { SendFailure } from "../app/sendFailure";
import type { AnswerNotice } from "../LLMProviders/chainRunner/ChainEvents";
import type { NoteLoadProblem } from "../vault/noteLoadProblem";
import { NoteIndexError } from "../search/noteIndexError";
import { EditHistoryUnreadableError } from "../tools/edit/EditHistory";
import type { PromptNotice } from "../prompts/fillPrompt";
import { ENGLISH } from "../i18n/languages";
import { currentLanguage, t, uiLocale } from "../i18n/t";
import { fillsEveryPlaceholder } from "../i18n/translate";

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

/** What could not be read from a chip (or was left out of what it gave), for a Notice. */
export function chipProblemText(problem: ChipProblem): string {
  if (currentLanguage() === ENGLISH) return problem.text;
  const reason = problem.case;
  switch (reason.code) {
    case "unreadable":
      return t("chipProblem.unreadable", { path: reason.path, reason: failureSentence(reason) });
    case "image-unreadable":
      return t("chipProblem.image-unreadable", { name: reason.name, reason: failureSentence(reason) });
    case "web-failed":
      return t("chipProblem.web-failed", { url: reason.url, reason: failureSentence(reason) });
    case "image-not-scaled":
    case "image-scale-failed":
      // Pixels as written, not as a count ("4032×3024", never "4,032×3,024").
      return t(`chipProblem.${reason.code}`, { ...reason, width: String(reason.width), height: String(reason.height), maxSide: String(reason.maxSide) });
    default:
      return t(`chipProblem.${reason.code}`, reason);
  }
}

/** A problem a chat tells its view: a chip's, or its note's (see `ChatProblem`); without a case, the sentence as written. */
export function chatProblemText(message: string, reason: ChatProblem | undefined): string {
  switch (reason?.about) {
    case "chip":
      return chipProblemText({ text: message, case: reason.case });
    case "chat-note":
      return chatNoteProblemText(message, reason.case);
    case "send":
      return sendFailureText(message, reason.case);
    default:
      return message;
  }
}

/**
 * A tool failure's sentence for its kind in the interface's language, or undefined where there is
 * none to give: a kind English has no sentence for (an error named by something other than our
 * tools), or values that lack one its sentence names (a failure read back from a note a person or a
 * later version wrote). The caller then says its English sentence.
 */
export function toolFailureText(failure: ToolFailure): string | undefined {
  const key = `toolError.${failure.kind}` as const;
  return fillsEveryPlaceholder(key, failure.values) ? t(key, failure.values) : undefined;
}

/** A failure's sentence by its kind where it was raised with one (as a tool's banner says it), else the error's own words. */
function failureSentence(problem: { reason: string; failure?: ToolFailure }): string {
  return (problem.failure && toolFailureText(problem.failure)) ?? problem.reason;
}

/** Why a message could not be sent: the chat's project missing (with the projects there are) or its note broken. */
export function sendFailureText(message: string, failure: SendFailure): string {
  if (currentLanguage() === ENGLISH) return message;
  switch (failure.code) {
    case "no-project":
      if (failure.known.length === 0) return t("sendFailure.no-project-none", { name: failure.name, folder: failure.folder });
      return t("sendFailure.no-project", { name: failure.name, folder: failure.folder, known: new Intl.ListFormat(uiLocale()).format(failure.known) });
    case "project-broken":
      return t("noteLoad.project", { path: failure.path, reason: noteLoadReason(failure.problem) });
  }
}

/** A prompt or project note that was not loaded, with the reason for its case. */
export function noteLoadText(note: "prompt" | "project", error: { message: string; path: string; problem: NoteLoadProblem }): string {
  if (currentLanguage() === ENGLISH) return error.message;
  return t(`noteLoad.${note}`, { path: error.path, reason: noteLoadReason(error.problem) });
}

function noteLoadReason(problem: NoteLoadProblem): string {
  if (problem.code === "unreadable") return failureSentence({ reason: problem.detail, ...(problem.failure ? { failure: problem.failure } : {}) });
  return t(`noteLoad.${problem.code}`, problem);
}

/** Why a saved chat could not be opened: the note is not a chat we can read (by its case), or the failure's kind, else the error's words. */
export function chatOpenFailureText(error: unknown): string {
  const message = errorMessage(error);
  if (currentLanguage() === ENGLISH) return message;
  if (error instanceof ChatNoteParseError && error.path !== undefined) {
    if (error.reason.code === "not-utf8") return t("history.notUtf8", { path: error.path });
    return t("history.notChat", { path: error.path, reason: chatNoteReasonText(message, error.reason) });
  }
  const failure = toolFailureOf(error);
  return (failure && toolFailureText(failure)) ?? message;
}

/** Why a note is not a chat we can read, as the end of a sentence ("… is not a chat Copilot can read (…)"). */
export function chatNoteReasonText(message: string, reason: ChatNoteReason): string {
  return currentLanguage() === ENGLISH ? message : t(`chatNoteReason.${reason.code}`, reason);
}

/** Why "Rebuild search index" failed: the index closed, or not saved (the platform's words kept), else the error's words. */
export function indexFailureText(error: unknown): string {
  if (currentLanguage() === ENGLISH || !(error instanceof NoteIndexError)) return errorMessage(error);
  return t(`indexFailure.${error.failure.code}`, error.failure);
}

/** Why an undo failed: the edit history cannot be read (by its case), else the error's words. */
export function undoFailureText(error: unknown): string {
  if (currentLanguage() === ENGLISH || !(error instanceof EditHistoryUnreadableError)) return errorMessage(error);
  return t(`undo.history.${error.problem.code}`, error.problem);
}

/** A notice shown with an answer (images left out, earlier exchanges left out), in the interface's language. */
export function answerNoticeText(notice: { text: string; case?: AnswerNotice }): string {
  const reason = notice.case;
  if (reason === undefined || currentLanguage() === ENGLISH) return notice.text;
  switch (reason.code) {
    case "images-left-out":
      return t("answerNotice.images-left-out", { count: reason.names.length, names: new Intl.ListFormat(uiLocale()).format(reason.names), model: reason.model });
    case "history-left-out":
      return t("answerNotice.history-left-out", { count: reason.dropped, tokens: reason.contextWindow });
  }
}

import { Notice, type Plugin } from "obsidian";
import type { EditHistory, UndoOutcome } from "../tools/edit/EditHistory";
import { undoFailureText } from "./coreNotices";
import { ENGLISH } from "../i18n/languages";
import { currentLanguage, t } from "../i18n/t";

/** Adds the "undo the agent's last edit" command over the history the edit tools record into. */
export function registerEditCommands(plugin: Plugin, history: EditHistory): void {
  plugin.addCommand({
    id: "undo-last-agent-edit",
    name: t("command.undoLastEdit"),
    callback: () => {
      void undoLastEdit(history);
    },
  });
}

/** Undoes the newest edit and tells the user what happened, in a notice. */
export async function undoLastEdit(history: EditHistory): Promise<string> {
  return (await undoNewest(history)).message;
}

/** What a chat's Undo did: `undone` only when the note is back as it was before that very edit. */
export interface EditUndoReport {
  undone: boolean;
  message: string;
}

/** An applied edit as its banner knows it: the note, and when the edit history recorded it (absent from older answers). */
export interface AppliedEditRef {
  path: string;
  appliedAt?: number;
}

/**
 * The Undo of an edit's banner in the chat. Edits are taken back newest first, so it undoes this
 * edit only while it is the newest one; otherwise it says which one to undo first, and changes
 * nothing. "Undone" is reported only for this very edit, so the banner never claims an undo that
 * took back another.
 */
export async function undoChatEdit(history: EditHistory, edit: AppliedEditRef): Promise<EditUndoReport> {
  const newest = (await history.list()).at(-1);
  if (!newest) return { undone: false, message: t("undo.none") };
  if (newest.path !== edit.path) return { undone: false, message: t("undo.newerOther", { path: newest.path }) };
  if (edit.appliedAt !== undefined && newest.appliedAt !== edit.appliedAt) {
    return { undone: false, message: t("undo.newerSame", { path: edit.path }) };
  }
  const { outcome, message } = await undoNewest(history);
  const undone = outcome?.status === "undone" && outcome.record.path === edit.path && (edit.appliedAt === undefined || outcome.record.appliedAt === edit.appliedAt);
  return { undone, message };
}

async function undoNewest(history: EditHistory): Promise<{ outcome?: UndoOutcome; message: string }> {
  let result: { outcome?: UndoOutcome; message: string };
  try {
    const outcome = await history.undoLast();
    result = { outcome, message: undoText(outcome) };
  } catch (error) {
    result = { message: t("notice.undoFailed", { reason: undoFailureText(error) }) };
  }
  new Notice(result.message);
  return result;
}

/**
 * An undo's outcome in the interface's language: in English the edit history's own sentence, in
 * another the sentence for its case, and for an edit that left the history, that it did.
 */
export function undoText(outcome: UndoOutcome): string {
  if (currentLanguage() === ENGLISH) return outcome.message;
  if (outcome.status === "nothing") return t("undo.outcome.nothing");
  const { reason, record } = outcome;
  const some = reason.code === "undone" && record.changes !== undefined;
  const sentence = t(some ? "undo.outcome.undone-some" : `undo.outcome.${reason.code}`, {
    path: record.path,
    ...(reason.code === "unrestorable-differs" ? { line: reason.line } : {}),
    ...(record.changes ? { applied: record.changes.applied, count: record.changes.proposed } : {}),
  });
  if (!("olderLeft" in reason)) return sentence;
  return t(reason.olderLeft ? "undo.removedOlderLeft" : "undo.removed", { sentence });
}

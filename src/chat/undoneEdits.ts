import type { ContextArtifact } from "../context/PromptContextTypes";
import type { ChatMessage, UserMessage } from "./chatTypes";

/**
 * What the model is told of an edit the user undid after the answer that made it. The model
 * cannot see the Undo button: without a word, the next turn's history still says "Edited …" and
 * the model goes on from a note that is no longer there.
 *
 * The word goes with the first question asked after the undo, as a block of that turn's context
 * (L3), so it reaches the model before the question; once the turn is recorded it joins the
 * context library (L2) with the other attachments, so every later turn knows it too, and the
 * prefix only grows. Which question told which undo is kept on the question (`undoneEdits`, and
 * its note's context callout), so a chat loaded from its note sends the same blocks.
 */

/** The sentence the model reads. */
export function undoneEditSentence(path: string): string {
  return `The user undid the edit of ${path}: the note is back as it was before that edit.`;
}

/**
 * The edits undone and not told yet, oldest first: the undone edits in the conversation's answers,
 * less those an earlier question already told (counted per note, since one note may be edited and
 * undone more than once). Replaced versions (Regenerate, Edit) are not the conversation.
 */
export function untoldUndoneEdits(messages: readonly ChatMessage[]): string[] {
  const told = new Map<string, number>();
  for (const message of messages) {
    if (message.role === "user") for (const path of message.undoneEdits ?? []) told.set(path, (told.get(path) ?? 0) + 1);
  }
  const untold: string[] = [];
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.parts) {
      if (part.type !== "tool-call" || !part.undone) continue;
      const left = told.get(part.undone.path) ?? 0;
      if (left > 0) told.set(part.undone.path, left - 1);
      else untold.push(part.undone.path);
    }
  }
  return untold;
}

/**
 * A question's context as the model reads it: the artifacts of its chips, then one block per edit
 * it tells of. Each block's id counts the undos of that note told so far, so a second undo of the
 * same note is a block of its own and not taken for the first one again.
 */
export function questionContext(messages: readonly ChatMessage[], question: UserMessage): ContextArtifact[] {
  const undone = question.undoneEdits ?? [];
  if (undone.length === 0) return [...question.artifacts];
  const toldBefore = new Map<string, number>();
  for (const message of messages) {
    if (message === question) break;
    if (message.role === "user") for (const path of message.undoneEdits ?? []) toldBefore.set(path, (toldBefore.get(path) ?? 0) + 1);
  }
  const blocks = undone.map((path) => {
    const ordinal = (toldBefore.get(path) ?? 0) + 1;
    toldBefore.set(path, ordinal);
    return { id: `undone-edit:${path}#${ordinal}`, kind: "text" as const, title: "Edit undone", source: path, content: undoneEditSentence(path) };
  });
  return [...question.artifacts, ...blocks];
}

/**
 * An answer's status: one list of words for the live chat, and the saved chat note's words made
 * from it. Live, an answer is "streaming" while it arrives, then "done", "stopped" (by the user, or
 * by a closed view) or "error". Its note says the same in a reader's words: "partial" for an
 * answer saved while it still arrived (what a crash leaves), "failed" for one that failed.
 */
export const ANSWER_STATUSES = ["streaming", "done", "stopped", "error"] as const;
export type AssistantStatus = (typeof ANSWER_STATUSES)[number];

const SAVED_WORDS = { streaming: "partial", done: "done", stopped: "stopped", error: "failed" } as const satisfies Record<AssistantStatus, string>;

/** An answer's status as its note keeps it (the answer heading's last word; "done" is written as none). */
export type SavedAnswerStatus = (typeof SAVED_WORDS)[AssistantStatus];

/** The note's word for a live status. */
export function savedStatus(status: AssistantStatus): SavedAnswerStatus {
  return SAVED_WORDS[status];
}

/**
 * A saved status as the chat holds it again. Nothing streams in a chat read from its note: an
 * answer saved while it arrived is "stopped" there.
 */
export function liveStatus(saved: SavedAnswerStatus): AssistantStatus {
  if (saved === "partial") return "stopped";
  return ANSWER_STATUSES.find((status) => SAVED_WORDS[status] === saved) ?? "stopped";
}

/** The saved status a word at the end of an answer heading names, if any ("done" is never written, so never read). */
export function savedStatusNamed(word: string | undefined): Exclude<SavedAnswerStatus, "done"> | undefined {
  return ANSWER_STATUSES.map(savedStatus).find((saved): saved is Exclude<SavedAnswerStatus, "done"> => saved !== "done" && saved === word);
}

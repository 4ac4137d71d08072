import type { ChatProblemReason } from "../chat/ChatController";
import type { ChipProblemCase } from "../chat/chipProblems";
import type { ChatNoteProblem } from "../history/ChatNoteWriter";
import { ProjectNotFoundError, type ProjectMissing } from "../projects/ProjectLibrary";
import { ProjectNoteError } from "../projects/projectNote";

/**
 * Why a message could not be sent before its answer began, when the reason is one of ours, by
 * case and values: the chat's project is gone (its note renamed or deleted, with the projects
 * the folder holds) or its note is broken (with the note's problem). The view says it in the
 * interface's language, while the CLI and English read the error's own sentence.
 */
export type SendFailure = ProjectMissing;

/** The case of an error thrown while a message was being sent, or undefined where it is not one of ours. */
export function sendFailureOf(error: unknown): SendFailure | undefined {
  if (error instanceof ProjectNotFoundError) return error.missing;
  if (error instanceof ProjectNoteError) return { code: "project-broken", path: error.path, problem: error.problem };
  return undefined;
}

/** The case beside a chat's problem, as the chat's owner (the view, the CLI) is told it: a chip's, why a message was not sent, or its note's. */
export type ChatProblem = { about: "chip"; case: ChipProblemCase } | { about: "send"; case: SendFailure } | { about: "chat-note"; case: ChatNoteProblem };

/** The controller's reason as the owner is told it: an error thrown named by its case where it is one of ours (else none). */
export function chatProblemOf(reason: ChatProblemReason | undefined): ChatProblem | undefined {
  if (reason?.about !== "thrown") return reason;
  const failure = sendFailureOf(reason.error);
  return failure ? { about: "send", case: failure } : undefined;
}

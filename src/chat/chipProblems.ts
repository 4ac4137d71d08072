import { errorMessage, toolFailureOf, type ToolFailure } from "../errorMessage";

/**
 * Why a chip gave nothing, or what was left out of what it gave, by case and values: the view
 * says it in the interface's language from these, while the CLI and English read `text`.
 */
export type ChipProblemCase =
  /** A note, PDF or canvas that could not be read (`failure`: the kind its error was raised with). */
  | { code: "unreadable"; path: string; reason: string; failure?: ToolFailure }
  /** An image that could not be read (`failure` as above). */
  | { code: "image-unreadable"; name: string; reason: string; failure?: ToolFailure }
  /** A note or image outside the chat's project. */
  | { code: "outside-project"; path: string }
  | { code: "folder-capped"; folder: string; cap: number; count: number }
  | { code: "tag-capped"; tag: string; cap: number }
  /** A pasted image of a reopened chat: its bytes were never kept. */
  | { code: "pasted-not-kept"; name: string }
  /** Images are not read where the chat runs. */
  | { code: "images-not-read"; name: string }
  /** Every image is left out, for this reason (the CLI's --no-images). */
  | { code: "images-left-out"; name: string; reason: string }
  | { code: "images-capped"; name: string; cap: number }
  | { code: "image-file-too-large"; name: string; megabytes: number; limit: number }
  | { code: "not-image"; name: string }
  /** Over the limits, and nothing here scales images down (`not-scaled`), or the scaling failed. */
  | { code: "image-not-scaled" | "image-scale-failed"; name: string; width: number; height: number; size: string; maxSide: number; maxSize: string }
  /** Web pages are not read where the chat runs. */
  | { code: "web-off"; url: string }
  /** A web page that could not be read (`failure`: switched off in the settings, unreachable, refused). */
  | { code: "web-failed"; url: string; reason: string; failure?: ToolFailure };

/** One problem: the English sentence (the CLI prints it) and its case for a view in another language. */
export interface ChipProblem {
  text: string;
  case: ChipProblemCase;
}

/** Thrown for a file outside the chat's project, so that no image, PDF or canvas there is read. */
export class OutsideChatProjectError extends Error {
  constructor() {
    super("it is outside the chat's project, so it was not sent");
    this.name = "OutsideChatProjectError";
  }
}

/** The error's sentence and the kind it was raised with, as a case's `reason` and `failure`. */
export function failureOf(error: unknown): { reason: string; failure?: ToolFailure } {
  const failure = toolFailureOf(error);
  return { reason: errorMessage(error), ...(failure ? { failure } : {}) };
}

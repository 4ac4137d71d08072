import { errorMessage, toolFailureOf, type ToolFailure } from "../errorMessage";

/**
 * Why a note whose properties say how something runs (a prompt note, a project note) was not
 * loaded, by case and values: the view says it in the interface's language from these, while
 * the CLI and English read the error's own sentence.
 */
export type NoteLoadProblem =
  | { code: "frontmatter-not-closed" }
  /** `detail`: the YAML parser's first line, in its words. */
  | { code: "frontmatter-not-yaml"; detail: string }
  | { code: "frontmatter-not-properties" }
  /** `mode` as written (JSON), `modes` the mode ids. */
  | { code: "mode-invalid"; mode: string; modes: string }
  | { code: "model-not-name" }
  | { code: "no-prompt-text" }
  | { code: "not-true-or-false"; key: string }
  | { code: "folder-invalid"; folder: string; detail: string }
  | { code: "tag-invalid"; tag: string }
  | { code: "url-invalid"; url: string }
  | { code: "not-text-list"; key: string }
  | { code: "empty-entry"; key: string }
  /** The note could not be read at all (`failure`: the kind its error was raised with). */
  | { code: "unreadable"; detail: string; failure?: ToolFailure };

/** The case of a note that could not be read at all, from the error its reading threw. */
export function unreadableNote(error: unknown): NoteLoadProblem {
  const failure = toolFailureOf(error);
  return { code: "unreadable", detail: errorMessage(error), ...(failure ? { failure } : {}) };
}

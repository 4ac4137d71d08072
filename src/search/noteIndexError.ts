/** Why the note index could not do what was asked, by case, for a view in another language. */
export type NoteIndexFailure =
  /** The index was closed (the plugin is being turned off). */
  | { code: "closed" }
  /** The rebuilt index could not be written to the plugin's data folder (`detail`: the platform's words). */
  | { code: "not-saved"; detail: string };

/** A failure of the index of ours: the message is the English sentence (the CLI's, the console's), `failure` its case. */
export class NoteIndexError extends Error {
  constructor(
    message: string,
    readonly failure: NoteIndexFailure,
  ) {
    super(message);
    this.name = "NoteIndexError";
  }
}

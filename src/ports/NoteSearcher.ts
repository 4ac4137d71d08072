/**
 * The note search port: what the runners, the `localSearch` tool and the prompt formatting know of
 * search. `search/NoteIndex` implements it; `context/` turns its hits into prompt text.
 */

/** Epoch-ms bounds of a time filter, as `getTimeRangeMs` returns them. */
export interface TimeRange {
  startTime: number;
  endTime: number;
}

/** One search hit as the model sees it. */
export interface SearchResultForLLM {
  /** Vault-relative path of the note. */
  path: string;
  /** The note's title (file name without ".md"). */
  title: string;
  /** The passage: a heading section or the start of the note. */
  content: string;
  /** The heading path of the passage, e.g. "Methods > Results", when it is a section. */
  heading?: string;
  score: number;
  /** The page of a PDF's passage (1-based); absent for notes and canvases. */
  page?: number;
  /** Last modification, epoch ms. */
  mtime?: number;
}

export interface NoteSearchOptions {
  /** Most hits to return. */
  limit: number;
  /** Key words the model picked out of the question; they weigh more than the rest of the query. */
  salientTerms?: readonly string[];
  /** Only notes modified in the range, or daily notes for a day in it. */
  timeRange?: TimeRange;
  /** Only notes in this folder (vault path, no trailing "/"). */
  insideFolder?: string;
  /** No notes in this folder (vault path, no trailing "/"). */
  outsideFolder?: string;
  /**
   * Only notes this accepts (a project's scope): asked of every candidate while ranking, so the
   * best notes it accepts fill the list; it must answer at once (a set lookup).
   */
  acceptPath?: (path: string) => boolean;
  /** Words only: no note that is close in meaning alone (a list that must narrow as words are added). */
  wordsOnly?: boolean;
  signal?: AbortSignal;
}

/**
 * Note search as the agent runners and the `localSearch` tool use it: hits shaped for the model
 * (path, title, the best-matching passage, score), best first. `NoteIndex` implements it.
 */
export interface NoteSearcher {
  search(query: string, options: NoteSearchOptions): Promise<SearchResultForLLM[]>;
}

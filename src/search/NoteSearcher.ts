import type { TimeRange } from "../context/cicPromptUtils";
import type { SearchResultForLLM } from "../context/formatSearchResultsForLLM";

export interface NoteSearchOptions {
  /** Most hits to return. */
  limit: number;
  /** Key words the model picked out of the question; they weigh more than the rest of the query. */
  salientTerms?: readonly string[];
  /** Only notes modified in the range, or daily notes for a day in it. */
  timeRange?: TimeRange;
  signal?: AbortSignal;
}

/**
 * Note search as the agent runners and the `localSearch` tool use it: hits shaped for the model
 * (path, title, the best-matching passage, score), best first. `NoteIndex` implements it.
 */
export interface NoteSearcher {
  search(query: string, options: NoteSearchOptions): Promise<SearchResultForLLM[]>;
}

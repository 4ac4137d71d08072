import type { TimeRange } from "../ports/NoteSearcher";
import type { IndexedDocument, InvertedIndex } from "./InvertedIndex";
import { noteTitle } from "./noteFields";
import type { RankingParameters } from "./ranking";
import { timeRangeFilter } from "./timeRange";

/** One ranked note: enough to list it, cite it and fetch its passage. */
export interface RankedNote {
  path: string;
  title: string;
  score: number;
  mtime: number;
  /** A PDF's best page for the query (1-based), when the PDF was ranked by its pages (pdfPages.ts). */
  page?: number;
}

export interface RankRequest {
  /** Query terms (tokenized) and their weights. */
  terms: ReadonlyMap<string, number>;
  limit: number;
  ranking: RankingParameters;
  timeRange?: TimeRange;
  /** The zone `timeRange` was computed in. */
  timeZone: string;
  /** Only notes in this folder. */
  insideFolder?: string;
  /** No notes in this folder. */
  outsideFolder?: string;
  /** Only notes this accepts (a project's scope). */
  acceptPath?: (path: string) => boolean;
}

/**
 * The best notes for a query. With a time range, only notes in it count, and when fewer than
 * `limit` of them match the query the rest of the range follows, newest first, at score 0: asked
 * "what did I do last week", the notes of last week are the answer whatever words they use.
 */
export function rankNotes(index: InvertedIndex, request: RankRequest): RankedNote[] {
  const accept = requestFilter(request);
  const hits = index.search(request.terms, request.limit, request.ranking, accept);
  const notes = hits.map(({ document, score }) => toRankedNote(document, score));
  if (request.timeRange && accept && notes.length < request.limit) {
    const seen = new Set(notes.map((note) => note.path));
    const rest = [...index.allDocuments()]
      .filter((document) => !seen.has(document.path) && accept(document))
      .sort((a, b) => b.mtime - a.mtime || b.dayKey - a.dayKey || a.path.localeCompare(b.path));
    for (const document of rest.slice(0, request.limit - notes.length)) notes.push(toRankedNote(document, 0));
  }
  return notes;
}

/** The notes a request lets through (its time range and folders), or undefined when it lets all through. */
export function requestFilter(
  request: Pick<RankRequest, "timeRange" | "timeZone" | "insideFolder" | "outsideFolder" | "acceptPath">,
): ((document: IndexedDocument) => boolean) | undefined {
  const inRange = request.timeRange ? timeRangeFilter(request.timeRange, request.timeZone) : undefined;
  const inFolder = folderFilter(request.insideFolder, request.outsideFolder);
  const accepted = request.acceptPath;
  const inScope = accepted ? (document: IndexedDocument) => accepted(document.path) : undefined;
  const filters = [inScope, inFolder, inRange].filter((filter): filter is (document: IndexedDocument) => boolean => filter !== undefined);
  if (filters.length <= 1) return filters[0];
  return (document) => filters.every((filter) => filter(document));
}

/** Accepts the notes inside `inside` (when given) and outside `outside` (when given). */
function folderFilter(inside: string | undefined, outside: string | undefined): ((document: IndexedDocument) => boolean) | undefined {
  if (inside === undefined && outside === undefined) return undefined;
  const insidePrefix = inside === undefined ? undefined : `${inside}/`;
  const outsidePrefix = outside === undefined ? undefined : `${outside}/`;
  return (document) => (insidePrefix === undefined || document.path.startsWith(insidePrefix)) && (outsidePrefix === undefined || !document.path.startsWith(outsidePrefix));
}

export function toRankedNote(document: IndexedDocument, score: number): RankedNote {
  return { path: document.path, title: noteTitle(document.path), score, mtime: document.mtime };
}

import type { IndexedDocument, InvertedIndex } from "./InvertedIndex";
import { toRankedNote, type RankedNote } from "./rankNotes";
import { comparableTitle as comparable } from "./noteFields";

/**
 * Exact titles win: a note whose title is the query, word for word, goes first, whatever the
 * fusion made of it (meaning can rank a short title note low). The list keeps its length.
 */
export function titleFirst(notes: RankedNote[], query: string, index: InvertedIndex, accept: ((document: IndexedDocument) => boolean) | undefined): RankedNote[] {
  const wanted = comparable(query);
  if (!wanted || notes.length === 0) return notes;
  const present = notes.findIndex((note) => comparable(note.title) === wanted);
  if (present === 0) return notes;
  if (present > 0) return [notes[present]!, ...notes.slice(0, present), ...notes.slice(present + 1)];
  for (const path of index.pathsTitled(wanted)) {
    const document = index.get(path);
    if (document && (!accept || accept(document))) return [toRankedNote(document, notes[0]!.score), ...notes.slice(0, -1)];
  }
  return notes;
}

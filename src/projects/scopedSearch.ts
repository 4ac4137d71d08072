import type { NoteSearcher } from "../ports/NoteSearcher";
import type { ProjectScope } from "./ProjectScope";
import type { ScopedVault } from "./ScopedVault";

/** A note related to another, as the related-notes list and `similar` give it. */
export interface RelatedNote {
  path: string;
  score: number;
}

/**
 * Note search inside a project: the index ranks only the project's notes (by words and by
 * meaning, so the best of them fill the list), what comes back is checked once more against the
 * scope, and each passage's links out of the project are masked as the project's vault masks them.
 */
export function scopedNoteSearcher(searcher: NoteSearcher, scope: ProjectScope, vault: ScopedVault): NoteSearcher {
  return {
    async search(query, options) {
      await scope.prepare(options.signal);
      const asked = options.acceptPath;
      const acceptPath = asked ? (path: string) => scope.has(path) && asked(path) : (path: string) => scope.has(path);
      const results = await searcher.search(query, { ...options, acceptPath });
      return results.filter((result) => scope.has(result.path)).map((result) => ({ ...result, content: vault.maskPassage(result.content, result.path) }));
    },
  };
}

/** Related notes inside a project: none for a note outside it, and only the project's notes for one in it. */
export function scopedRelatedNotes<Related extends RelatedNote>(
  similar: (path: string, signal: AbortSignal, acceptPath: (path: string) => boolean) => Promise<Related[]>,
  scope: ProjectScope,
): { similar(path: string, signal: AbortSignal): Promise<Related[]> } {
  return {
    async similar(path, signal) {
      await scope.prepare(signal);
      if (!scope.has(path)) return [];
      const related = await similar(path, signal, (candidate) => scope.has(candidate));
      return related.filter((note) => scope.has(note.path));
    },
  };
}

import { errorMessage } from "../errorMessage";
import { useEffect, useState } from "react";
import type { SimilarNote } from "../search/similarNotes";

/** Where the related notes come from (the note index), and what a row does. */
export interface RelatedNotesSource {
  similar(path: string, signal: AbortSignal): Promise<SimilarNote[]>;
}

export interface RelatedNotesListProps {
  source: RelatedNotesSource;
  /** The note the list is about; null: none open. */
  path: string | null;
  onOpen: (path: string, event: React.MouseEvent) => void;
  onAddToChat: (path: string) => void;
}

const LINK_WORDS: Readonly<Record<NonNullable<SimilarNote["link"]>, string>> = {
  "links-to": "linked from this note",
  "linked-from": "links to this note",
  both: "linked both ways",
};

/** Why a note is listed, in a few words: the shared words, the shared tags, the link. */
export function reasonOf(note: SimilarNote): string {
  const parts: string[] = [];
  if (note.sharedTerms.length > 0) parts.push(`shares ${note.sharedTerms.map((term) => `“${term}”`).join(", ")}`);
  if (note.sharedTags.length > 0) parts.push(`tagged ${note.sharedTags.join(", ")}`);
  if (note.link) parts.push(LINK_WORDS[note.link]);
  if (note.meaning !== undefined) parts.push(`close in meaning (${note.meaning.toFixed(2)})`);
  return parts.join(" · ");
}

/**
 * The notes related to `path`, best first, each with its score and why; the note's name opens
 * it, "Add to chat" attaches it. Asked again whenever `path` changes (a stale answer is dropped).
 */
export function RelatedNotesList({ source, path, onOpen, onAddToChat }: RelatedNotesListProps) {
  const [state, setState] = useState<{ path: string | null; notes: SimilarNote[] | null; error?: string }>({ path: null, notes: null });
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    source.similar(path, controller.signal).then(
      (notes) => !controller.signal.aborted && setState({ path, notes }),
      (error: unknown) => !controller.signal.aborted && setState({ path, notes: [], error: errorMessage(error) }),
    );
    return () => controller.abort();
  }, [source, path]);

  if (!path) return <div className="vault-copilot-related-empty">Open a note to see the notes related to it.</div>;
  if (state.path !== path || state.notes === null) return <div className="vault-copilot-related-empty">Looking for related notes…</div>;
  if (state.error) return <div className="vault-copilot-related-empty">Related notes could not be found: {state.error}</div>;
  if (state.notes.length === 0) return <div className="vault-copilot-related-empty">No related notes yet.</div>;
  return (
    <ul className="vault-copilot-related-list" aria-label="Related notes">
      {state.notes.map((note) => (
        <li key={note.path} className="vault-copilot-related-item">
          <div className="vault-copilot-related-head">
            <a href={note.path} className="internal-link" onClick={(event) => {
              event.preventDefault();
              onOpen(note.path, event);
            }}>
              {note.title}
            </a>
            <span className="vault-copilot-related-score" aria-label={`Score ${note.score.toFixed(2)}`}>
              {note.score.toFixed(2)}
            </span>
            <button type="button" aria-label={`Add ${note.title} to chat`} onClick={() => onAddToChat(note.path)}>
              Add to chat
            </button>
          </div>
          <div className="vault-copilot-related-why">{reasonOf(note)}</div>
        </li>
      ))}
    </ul>
  );
}

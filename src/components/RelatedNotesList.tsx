import { errorMessage } from "../errorMessage";
import { useEffect, useState } from "react";
import type { SimilarNote } from "../search/similarNotes";
import { t, uiLocale } from "../i18n/t";

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

/** A score with two decimals, written the interface's way ("0.42", "0,42"). */
function score(value: number): string {
  return new Intl.NumberFormat(uiLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** Why a note is listed, in a few words: the shared words, the shared tags, the link. */
export function reasonOf(note: SimilarNote): string {
  const parts: string[] = [];
  if (note.sharedTerms.length > 0) parts.push(t("related.shares", { terms: note.sharedTerms.map((term) => `“${term}”`).join(", ") }));
  if (note.sharedTags.length > 0) parts.push(t("related.tagged", { tags: note.sharedTags.join(", ") }));
  if (note.link) parts.push(t(`related.${note.link}`));
  if (note.meaning !== undefined) parts.push(t("related.meaning", { score: score(note.meaning) }));
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

  if (!path) return <div className="vault-copilot-related-empty">{t("related.openNote")}</div>;
  if (state.path !== path || state.notes === null) return <div className="vault-copilot-related-empty">{t("related.looking")}</div>;
  if (state.error) return <div className="vault-copilot-related-empty">{t("related.failed", { reason: state.error })}</div>;
  if (state.notes.length === 0) return <div className="vault-copilot-related-empty">{t("related.none")}</div>;
  return (
    <ul className="vault-copilot-related-list" aria-label={t("related.heading")}>
      {state.notes.map((note) => (
        <li key={note.path} className="vault-copilot-related-item">
          <div className="vault-copilot-related-head">
            <a href={note.path} className="internal-link" onClick={(event) => {
              event.preventDefault();
              onOpen(note.path, event);
            }}>
              {note.title}
            </a>
            <span className="vault-copilot-related-score" aria-label={t("related.score", { score: score(note.score) })}>
              {score(note.score)}
            </span>
            <button type="button" aria-label={t("related.add", { title: note.title })} onClick={() => onAddToChat(note.path)}>
              {t("related.addButton")}
            </button>
          </div>
          <div className="vault-copilot-related-why">{reasonOf(note)}</div>
        </li>
      ))}
    </ul>
  );
}

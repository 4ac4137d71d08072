import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { ChatListing, ChatSummary } from "../../history/ChatHistory";
import { errorMessage } from "../../errorMessage";
import { useChatHost } from "./ChatHost";

/** How long typing in the search box waits before it searches. */
const SEARCH_DELAY_MS = 150;

/**
 * The saved chats, newest first, in place of the conversation: a search box (names, and text
 * through the note index), and per chat Open (its name), Rename and Delete (to the trash, after a
 * confirm). Notes that carry a chat id but cannot be read are listed as problems; nothing is
 * written to them. Opening a chat writes nothing.
 */
export function ChatHistoryPanel({ onOpened }: { onOpened: () => void }) {
  const host = useChatHost();
  const [query, setQuery] = useState("");
  const [listing, setListing] = useState<ChatListing | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(
      () => {
        host.history.list(query).then(
          (result) => live && (setListing(result), setFailure(null)),
          (error: unknown) => live && setFailure(errorMessage(error)),
        );
      },
      query === "" ? 0 : SEARCH_DELAY_MS,
    );
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [host, query, reload]);

  useEffect(() => search.current?.focus(), []);

  const open = (chat: ChatSummary) => {
    host.history.open(chat.path).then(onOpened, (error: unknown) => host.notify(errorMessage(error)));
  };

  return (
    <section className="vault-copilot-history" aria-label="Saved chats">
      <input
        ref={search}
        type="search"
        className="vault-copilot-history-search"
        aria-label="Search chats"
        placeholder="Search chats…"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {failure && <p className="vault-copilot-history-problem">The chats could not be listed: {failure}</p>}
      {listing && listing.chats.length === 0 && <p className="vault-copilot-history-empty">{query ? `No chat matches “${query}”.` : "No saved chats yet."}</p>}
      {listing && listing.chats.length > 0 && (
        <ul className="vault-copilot-history-list">
          {listing.chats.map((chat) => (
            <ChatRow key={chat.path} chat={chat} onOpen={() => open(chat)} onChanged={() => setReload((count) => count + 1)} />
          ))}
        </ul>
      )}
      {listing && listing.problems.length > 0 && (
        <ul className="vault-copilot-history-problems" aria-label="Notes that could not be read">
          {listing.problems.map((problem) => (
            <li key={problem.path} className="vault-copilot-history-problem">
              “{problem.path}” is not a chat Copilot can read ({problem.message}); it is left as it is.
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ChatRow({ chat, onOpen, onChanged }: { chat: ChatSummary; onOpen: () => void; onChanged: () => void }) {
  const host = useChatHost();
  const [mode, setMode] = useState<"show" | "rename" | "confirm-delete">("show");
  const [name, setName] = useState(chat.title);

  const rename = () => {
    const title = name.trim();
    if (!title || title === chat.title) {
      setMode("show");
      return;
    }
    host.history.rename(chat.path, title).then(
      () => {
        setMode("show");
        onChanged();
      },
      (error: unknown) => host.notify(`The chat could not be renamed: ${errorMessage(error)}`),
    );
  };
  const remove = () => {
    host.history.remove(chat.path).then(onChanged, (error: unknown) => host.notify(`The chat could not be deleted: ${errorMessage(error)}`));
  };
  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      rename();
    } else if (event.key === "Escape") {
      event.preventDefault();
      setName(chat.title);
      setMode("show");
    }
  };

  return (
    <li className="vault-copilot-history-item">
      {mode === "rename" ? (
        <input
          className="vault-copilot-history-rename"
          aria-label={`New name for ${chat.title}`}
          value={name}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          onKeyDown={onRenameKey}
          onBlur={() => setMode("show")}
        />
      ) : (
        <button type="button" className="vault-copilot-history-open" onClick={onOpen} title={chat.path}>
          {chat.title}
        </button>
      )}
      <span className="vault-copilot-history-date">{readableTime(chat.updated)}</span>
      {mode === "confirm-delete" ? (
        <span className="vault-copilot-history-actions" role="group" aria-label={`Delete ${chat.title}?`}>
          <button type="button" className="mod-warning" onClick={remove}>
            Move to trash
          </button>
          <button type="button" onClick={() => setMode("show")}>
            Cancel
          </button>
        </span>
      ) : (
        <span className="vault-copilot-history-actions">
          <button type="button" aria-label={`Rename ${chat.title}`} onClick={() => setMode("rename")}>
            Rename
          </button>
          <button type="button" aria-label={`Delete ${chat.title}`} onClick={() => setMode("confirm-delete")}>
            Delete
          </button>
        </span>
      )}
    </li>
  );
}

/** "2026-12-03T14:05:12Z" as the local date and time, e.g. "2026-12-03 15:05". */
function readableTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { chatDisplayTitle, type ChatFilter, type ChatListing, type ChatSummary } from "../../history/ChatHistory";
import { errorMessage } from "../../errorMessage";
import { useChatHost } from "./ChatHost";
import { chatNoteReasonText, chatOpenFailureText } from "../coreNotices";
import { t, uiLocale } from "../../i18n/t";
import type { MessageKey } from "../../i18n/messages";

/** How long typing in the search box waits before it searches. */
const SEARCH_DELAY_MS = 150;

/**
 * The saved chats, newest first, in place of the conversation, grouped Today / Yesterday / This
 * week / Older: a search box (names, and text through the note index; the list narrows as words
 * are added), and per chat Open (its name, without the date the note's name starts with: the date
 * has its own column), and a menu with Rename and Delete (to the trash, after a confirm). The chat
 * open in the view is marked. Notes that carry a chat id but cannot be read are listed as problems;
 * nothing is written to them. Opening a chat writes nothing.
 */
export function ChatHistoryPanel({ onOpened, currentChatId, project = null }: { onOpened: () => void; currentChatId?: string; project?: string | null }) {
  const host = useChatHost();
  const [query, setQuery] = useState("");
  // The chats of the chat's project first; "" is every chat, NO_PROJECT those in none.
  const [shown, setShown] = useState<string>(project ?? ALL_CHATS);
  const projects = useProjectNames();
  const [listing, setListing] = useState<ChatListing | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(
      () => {
        host.history.list(query, filterOf(shown)).then(
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
  }, [host, query, reload, shown]);

  useEffect(() => search.current?.focus(), []);

  const open = (chat: ChatSummary) => {
    host.history.open(chat.path).then(onOpened, (error: unknown) => host.notify(chatOpenFailureText(error)));
  };
  const groups = listing ? groupByDay(listing.chats, new Date()) : [];

  return (
    <section className="vault-copilot-history" aria-label={t("history.saved")}>
      <input
        ref={search}
        type="search"
        className="vault-copilot-history-search"
        aria-label={t("history.search")}
        placeholder={t("history.searchPlaceholder")}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {(projects.length > 0 || shown !== ALL_CHATS) && (
        <select className="dropdown vault-copilot-history-project" aria-label={t("history.ofProject")} value={shown} onChange={(event) => setShown(event.target.value)}>
          <option value={ALL_CHATS}>{t("history.all")}</option>
          <option value={NO_PROJECT}>{t("history.noProject")}</option>
          {[...new Set([...projects, ...(project ? [project] : [])])].map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      )}
      {failure && <p className="vault-copilot-history-problem">{t("history.listFailed", { reason: failure })}</p>}
      {listing && listing.chats.length === 0 && <p className="vault-copilot-history-empty">{query ? t("history.noMatch", { query }) : t("history.none")}</p>}
      {groups.map((group) => (
        <div key={group.label} className="vault-copilot-history-group" role="group" aria-label={group.label}>
          <div className="vault-copilot-history-group-heading">{group.label}</div>
          <ul className="vault-copilot-history-list">
            {group.chats.map((chat) => (
              <ChatRow key={chat.path} chat={chat} day={group.day} current={chat.id === currentChatId} onOpen={() => open(chat)} onChanged={() => setReload((count) => count + 1)} />
            ))}
          </ul>
        </div>
      ))}
      {listing && listing.problems.length > 0 && (
        <ul className="vault-copilot-history-problems" aria-label={t("history.unreadable")}>
          {listing.problems.map((problem) => (
            <li key={problem.path} className="vault-copilot-history-problem">
              {t("history.problem", { path: problem.path, reason: chatNoteReasonText(problem.message, problem.reason) })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The filter's values that are not a project's name (a project note's name never starts with a NUL). */
const ALL_CHATS = "";
const NO_PROJECT = "\u0000none";

function filterOf(shown: string): ChatFilter {
  if (shown === ALL_CHATS) return {};
  return { project: shown === NO_PROJECT ? null : shown };
}

function useProjectNames(): string[] {
  const host = useChatHost();
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    host.projects.list().then(
      (list) => live && setNames(list.map((choice) => choice.name)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [host]);
  return names;
}

interface ChatRowProps {
  chat: ChatSummary;
  /** Whether the chat's group is a single day (its column then shows the time, else the date). */
  day: "today" | "yesterday" | "week" | "older";
  current: boolean;
  onOpen: () => void;
  onChanged: () => void;
}

function ChatRow({ chat, day, current, onOpen, onChanged }: ChatRowProps) {
  const host = useChatHost();
  const title = chatDisplayTitle(chat.title);
  const [mode, setMode] = useState<"show" | "rename" | "confirm-delete">("show");
  const [name, setName] = useState(title);

  const rename = () => {
    const newTitle = name.trim();
    if (!newTitle || newTitle === title) {
      setMode("show");
      return;
    }
    host.history.rename(chat.path, newTitle).then(
      () => {
        setMode("show");
        onChanged();
      },
      (error: unknown) => host.notify(t("history.renameFailed", { reason: errorMessage(error) })),
    );
  };
  const remove = () => {
    host.history.remove(chat.path).then(onChanged, (error: unknown) => host.notify(t("history.deleteFailed", { reason: errorMessage(error) })));
  };
  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      rename();
    } else if (event.key === "Escape") {
      event.preventDefault();
      setName(title);
      setMode("show");
    }
  };

  return (
    <li className={`vault-copilot-history-item${current ? " is-current" : ""}`} aria-current={current ? "true" : undefined}>
      {mode === "rename" ? (
        <input
          className="vault-copilot-history-rename"
          aria-label={t("history.newName", { title })}
          value={name}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          onKeyDown={onRenameKey}
          onBlur={() => setMode("show")}
        />
      ) : (
        <button type="button" className="vault-copilot-history-open" onClick={onOpen} title={chat.path}>
          {title}
        </button>
      )}
      {current && <span className="vault-copilot-history-current">{t("history.open")}</span>}
      <span className="vault-copilot-history-date">{shownTime(chat.updated, day)}</span>
      {mode === "confirm-delete" ? (
        <span className="vault-copilot-history-actions" role="group" aria-label={t("history.deleteQuestion", { title })}>
          <button type="button" className="mod-warning" onClick={remove}>
            {t("history.moveToTrash")}
          </button>
          <button type="button" onClick={() => setMode("show")}>
            {t("history.cancel")}
          </button>
        </span>
      ) : (
        <RowMenu
          label={t("history.actions", { title })}
          items={[
            { label: t("history.rename"), run: () => setMode("rename") },
            { label: t("history.delete"), run: () => setMode("confirm-delete") },
          ]}
        />
      )}
    </li>
  );
}

/**
 * A "⋯" button and its menu, by keyboard as by pointer: Enter or Space opens it on its first item,
 * the arrow keys move, Enter runs, Escape closes it and gives the focus back to the button.
 */
function RowMenu({ label, items }: { label: string; items: { label: string; run: () => void }[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const focusItem = (index: number) => {
    const elements = menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [];
    elements[(index + elements.length) % elements.length]?.focus();
  };
  useEffect(() => {
    if (open) focusItem(0);
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const elements = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = elements.indexOf(event.target as HTMLElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusItem(at + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    }
  };
  return (
    <span className="vault-copilot-history-actions">
      <button
        ref={button}
        type="button"
        className="clickable-icon vault-copilot-history-menu-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((shown) => !shown)}
      >
        ⋯
      </button>
      {open && (
        <ul
          ref={menu}
          className="menu vault-copilot-history-menu"
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget) && event.relatedTarget !== button.current) close(false);
          }}
        >
          {items.map((item) => (
            <li
              key={item.label}
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              onClick={() => {
                close(false);
                item.run();
              }}
              onKeyDown={(event) => {
                if (event.key !== "Enter" && event.key !== " ") return;
                event.preventDefault();
                close(false);
                item.run();
              }}
            >
              {item.label}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}

type Day = ChatRowProps["day"];
const GROUP_LABELS = { today: "history.today", yesterday: "history.yesterday", week: "history.week", older: "history.older" } as const satisfies Record<Day, MessageKey>;

/** The chats in groups by their last change, in local time: today, yesterday, the five days before, older. Empty groups are left out. */
export function groupByDay(chats: readonly ChatSummary[], now: Date): { day: Day; label: string; chats: ChatSummary[] }[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const dayStart = (daysBack: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime();
  const groups = new Map<Day, ChatSummary[]>();
  for (const chat of chats) {
    const ms = Date.parse(chat.updated);
    const day: Day = Number.isNaN(ms) ? "older" : ms >= startOfToday ? "today" : ms >= dayStart(1) ? "yesterday" : ms >= dayStart(6) ? "week" : "older";
    groups.set(day, [...(groups.get(day) ?? []), chat]);
  }
  return (Object.keys(GROUP_LABELS) as Day[]).flatMap((day) => {
    const inGroup = groups.get(day);
    return inGroup ? [{ day, label: t(GROUP_LABELS[day]), chats: inGroup }] : [];
  });
}

/** The date column: the time for today and yesterday, the weekday and time this week, the date before, in the interface's locale. */
export function shownTime(iso: string, day: Day, locale = uiLocale()): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  const options: Intl.DateTimeFormatOptions =
    day === "today" || day === "yesterday" ? { hour: "2-digit", minute: "2-digit" } : day === "week" ? { weekday: "short", hour: "2-digit", minute: "2-digit" } : { year: "numeric", month: "short", day: "numeric" };
  return new Intl.DateTimeFormat(locale, options).format(ms);
}

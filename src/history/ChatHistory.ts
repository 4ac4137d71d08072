import type { NoteSearcher } from "../ports/NoteSearcher";
import { redactSecrets } from "../settings/secrets";
import { pathKey, toVaultPath } from "../vault/vaultPath";
import { VaultFileExistsError, VaultNotTextError, type VaultPort } from "../vault/VaultPort";
import type { ChatRecord } from "./chatRecord";
import { ChatNoteParseError, parseChat, type ChatNoteReason } from "./chatNoteFormat";

/** A chat in the history list. */
export interface ChatSummary {
  path: string;
  /** The note's name. */
  title: string;
  id: string;
  /** As the note says ("2026-12-03T14:05:12Z"); the list is sorted on it, newest first. */
  updated: string;
  /** The project the chat is in, as its note says; absent for a chat of the whole vault. */
  project?: string;
}

/**
 * Which chats a listing keeps: those of one project (its name), those in no project (null), or
 * all (absent). Project names compare as the projects' do (letter case and Unicode form aside).
 */
export interface ChatFilter {
  project?: string | null;
}

export interface ChatListing {
  chats: ChatSummary[];
  /** Notes in the history folder that carry a chat id but cannot be read as a chat: why, and its case. */
  problems: { path: string; message: string; reason: ChatNoteReason }[];
}

export interface ChatHistoryOptions {
  vault: VaultPort;
  /** The history folder from the settings (read at each call). */
  folder: () => string;
  /** The note index, when it runs: the list's search looks in the chats' text through it. */
  searcher?: () => NoteSearcher | null;
  /** The values of the secrets the plugin holds: never part of a name typed for a rename (a new note is named from its text, where they are replaced already). */
  secrets?: () => Iterable<string>;
}

/** The frontmatter property that makes a note a chat, and finds it after a rename or a move. */
export const CHAT_ID_PROPERTY = "chat-id";

/**
 * The chats kept as notes: listed, found by id, read, created, renamed and deleted. Writing a
 * chat as it goes is `ChatNoteWriter`'s; this class only knows where chats are.
 */
export class ChatHistory {
  /** Where each chat id was last seen: a renamed or moved note is looked for once, then known. */
  private readonly knownPaths = new Map<string, string>();

  constructor(private readonly options: ChatHistoryOptions) {}

  /** The history folder, as a vault path. */
  folder(): string {
    return toVaultPath(this.options.folder(), this.options.vault.configDir);
  }

  /** The chats in the history folder, newest first (those the filter keeps). Reads only their properties. */
  async list(filter: ChatFilter = {}): Promise<ChatListing> {
    const { vault } = this.options;
    const prefix = `${this.folder()}/`;
    const chats: ChatSummary[] = [];
    const problems: ChatListing["problems"] = [];
    for (const path of await vault.listNotes()) {
      if (!path.startsWith(prefix)) continue;
      const frontmatter = (await vault.getMetadata(path))?.frontmatter ?? {};
      const id = frontmatter[CHAT_ID_PROPERTY];
      if (id === undefined) continue;
      if (typeof id !== "string" || id.trim() === "") {
        problems.push({ path, message: `its ${CHAT_ID_PROPERTY} is not text`, reason: { code: "chat-id-not-text" } });
        continue;
      }
      this.knownPaths.set(id, path);
      const project = typeof frontmatter.project === "string" && frontmatter.project.trim() !== "" ? frontmatter.project.trim() : undefined;
      if (!keeps(filter, project)) continue;
      chats.push({ path, title: titleOf(path), id, updated: typeof frontmatter.updated === "string" ? frontmatter.updated : "", ...(project ? { project } : {}) });
    }
    chats.sort((left, right) => right.updated.localeCompare(left.updated) || left.title.localeCompare(right.title));
    return { chats, problems };
  }

  /**
   * The chats that hold every word of `query` in their name or their text: names first (newest
   * first), then the index's hits among the chats (best first), each read to check it has every
   * word, so the list narrows as words are added and a query nothing holds lists nothing, with
   * embeddings on or off. Without a running index, names only.
   */
  async search(query: string, filter: ChatFilter = {}): Promise<ChatListing> {
    const listing = await this.list(filter);
    const words = searchWords(query);
    if (words.length === 0) return listing;
    const holdsAll = (text: string) => {
      const folded = foldForSearch(text);
      return words.every((word) => folded.includes(word));
    };
    const byName = listing.chats.filter((chat) => holdsAll(chat.title));
    const searcher = this.options.searcher?.();
    const byPath = new Map(listing.chats.map((chat) => [chat.path, chat]));
    const hits = searcher ? await searcher.search(query, { limit: MAX_TEXT_HITS, insideFolder: this.folder(), wordsOnly: true }).catch(() => []) : [];
    const byText: ChatSummary[] = [];
    for (const hit of hits) {
      const chat = byPath.get(hit.path);
      if (!chat || byName.includes(chat)) continue;
      const text = await this.options.vault.read(chat.path).catch(() => "");
      if (holdsAll(text)) byText.push(chat);
    }
    return { chats: [...byName, ...byText], problems: listing.problems };
  }

  /**
   * Reads a chat note to go on with (its chat, and its text as read); throws `ChatNoteParseError`
   * (naming the note) when it is not a chat we can read, or not UTF-8 text: going on writes the
   * note, and its text read leniently and written back would change bytes nobody was shown.
   */
  async load(path: string): Promise<{ record: ChatRecord; text: string }> {
    let text: string;
    try {
      text = await this.options.vault.read(path, { forEdit: true });
    } catch (error) {
      if (error instanceof VaultNotTextError) {
        throw new ChatNoteParseError(
          `"${path}" is not UTF-8 text (a Latin-1 export or a binary file?), so this chat cannot be continued without rewriting it and changing bytes nobody was shown. ` +
            "It was left as it is; save it as UTF-8 to go on with it.",
          { code: "not-utf8" },
          path,
        );
      }
      throw error;
    }
    try {
      const record = parseChat(text);
      this.knownPaths.set(record.id, path);
      return { record, text };
    } catch (error) {
      if (error instanceof ChatNoteParseError) throw new ChatNoteParseError(`"${path}" is not a chat Copilot can read: ${error.message}. It was left as it is.`, error.reason, path);
      throw error;
    }
  }

  /** Where the chat with this id is now: where it was seen last, else in the history folder, else anywhere in the vault. */
  async findById(id: string): Promise<string | null> {
    const { vault } = this.options;
    const known = this.knownPaths.get(id);
    if (known && (await this.idAt(known)) === id) return known;
    this.knownPaths.delete(id);
    const prefix = `${this.folder()}/`;
    const notes = await vault.listNotes();
    const inFolderFirst = [...notes.filter((path) => path.startsWith(prefix)), ...notes.filter((path) => !path.startsWith(prefix))];
    for (const path of inFolderFirst) {
      if ((await this.idAt(path)) !== id) continue;
      this.knownPaths.set(id, path);
      return path;
    }
    return null;
  }

  /**
   * Every note holding this chat id, history folder first; with `inside`, only the notes it
   * accepts are read (a copy is looked for near the note, not in the whole vault).
   */
  async notesWithId(id: string, inside?: (path: string) => boolean): Promise<string[]> {
    const prefix = `${this.folder()}/`;
    const notes = (await this.options.vault.listNotes()).filter((path) => !inside || inside(path));
    const holders: string[] = [];
    for (const path of [...notes.filter((path) => path.startsWith(prefix)), ...notes.filter((path) => !path.startsWith(prefix))]) {
      if ((await this.idAt(path)) === id) holders.push(path);
    }
    return holders;
  }

  /**
   * Creates the note of a new chat, named from its date and the first question as `text` holds it
   * (the note's text, secrets already replaced: a name never says more than the note); returns its path.
   */
  async create(record: ChatRecord, text: string): Promise<string> {
    const folder = this.folder();
    const base = `${record.created.slice(0, 10)} ${safeName(firstQuestionLine(text))}`.trim() || record.created.slice(0, 10);
    for (let attempt = 1; ; attempt++) {
      const path = `${folder}/${attempt === 1 ? base : `${base} ${attempt}`}.md`;
      try {
        await this.options.vault.create(path, text);
        this.knownPaths.set(record.id, path);
        return path;
      } catch (error) {
        if (!(error instanceof VaultFileExistsError) || attempt >= 100) throw error;
      }
    }
  }

  /** Gives a chat note a new name (in the same folder); returns the new path. */
  async rename(path: string, title: string): Promise<string> {
    const name = safeName(this.redacted(title));
    if (!name) throw new Error("A chat's name needs at least one letter or digit.");
    const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
    const newPath = `${folder}${name}.md`;
    if (newPath === path) return path;
    await this.options.vault.rename(path, newPath);
    for (const [id, known] of this.knownPaths) if (known === path) this.knownPaths.set(id, newPath);
    return newPath;
  }

  /** Moves a chat note to the trash (Obsidian's "Deleted files" setting decides which). */
  async remove(path: string): Promise<void> {
    await this.options.vault.trash(path);
    for (const [id, known] of this.knownPaths) if (known === path) this.knownPaths.delete(id);
  }

  private redacted(text: string): string {
    return this.options.secrets ? redactSecrets(text, this.options.secrets()) : text;
  }

  private async idAt(path: string): Promise<string | undefined> {
    const id = (await this.options.vault.getMetadata(path))?.frontmatter[CHAT_ID_PROPERTY];
    return typeof id === "string" ? id : undefined;
  }
}

/** Most chats the note index is asked for when the chats are searched by their text. */
const MAX_TEXT_HITS = 50;

/** Text as the chat search compares it: one Unicode form (NFC), lower case. */
function foldForSearch(text: string): string {
  return text.normalize("NFC").toLowerCase();
}

/** The words of a chat search, folded. */
function searchWords(query: string): string[] {
  return foldForSearch(query).split(/\s+/).filter(Boolean);
}

/** What the history list shows of a chat note's name: without the date it starts with (the list has the date in its own column). */
export function chatDisplayTitle(title: string): string {
  return title.replace(/^\d{4}-\d{2}-\d{2} (?=\S)/, "");
}

function titleOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

/**
 * What the note's first question shows: what the user wrote when its text was made from it (a
 * prompt's "/Summarize · Deep Work"), else its first line with text ("Chat" when it has none, or
 * is not a chat).
 */
function firstQuestionLine(text: string): string {
  let messages: ChatRecord["messages"];
  try {
    messages = parseChat(text).messages;
  } catch {
    return "Chat";
  }
  const question = messages.find((message) => message.role === "user");
  if (question?.role === "user" && question.shown !== undefined && safeName(question.shown) !== "") return question.shown;
  const line = question?.text.split("\n").find((entry) => safeName(entry) !== "");
  return line ?? "Chat";
}

/** A note name from free text: no characters a file name or a link cannot hold, at most 60 characters, cut at a word. */
export function safeName(text: string): string {
  const cleaned = text
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\\/:*?"<>|#^[\]\u0000-\u001f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  if (cleaned.length <= 60) return cleaned.replace(/[. ]+$/, "");
  const cut = cleaned.slice(0, 60);
  const space = cut.lastIndexOf(" ");
  return (space > 30 ? cut.slice(0, space) : cut).replace(/[. ]+$/, "");
}

/** Whether a chat of `project` (absent: none) passes the filter. */
function keeps(filter: ChatFilter, project: string | undefined): boolean {
  if (filter.project === undefined) return true;
  if (filter.project === null) return project === undefined;
  return project !== undefined && pathKey(project) === pathKey(filter.project);
}

import type { ChatPersistence } from "../chat/ChatController";
import type { ChatState } from "../chat/chatTypes";
import { errorMessage } from "../errorMessage";
import { SerialQueue } from "../ports/serialQueue";
import { redactSecrets } from "../settings/secrets";
import { realScheduler, type Scheduler } from "../ports/timers";
import { VaultFileNotFoundError, VaultNotTextError, type VaultPort } from "../vault/VaultPort";
import type { ChatRecord, RecordMessage, RecordQuestion } from "./chatRecord";
import type { ChatHistory } from "./ChatHistory";
import { ChatNoteParseError, parseChat, serializeChat } from "./chatNoteFormat";
import { baseOf, freshBase, recordFromState, type ChatNoteBase } from "./chatStateRecord";
import { splitAroundOwnExchange } from "./mergeChatNote";

/** How often a streaming answer is written at most. */
export const PROGRESS_SAVE_INTERVAL_MS = 2000;

/** What went wrong keeping a chat in its note, for a view that says it in its own language. */
export type ChatNoteProblem =
  | { code: "not-saved"; reason: string }
  | { code: "same-id"; path: string; twin: string }
  | { code: "left-not-text" | "left-not-chat"; old: string; path: string };

export interface ChatNoteWriterOptions {
  vault: VaultPort;
  history: ChatHistory;
  /** The "save chats automatically" setting (read at each save). */
  enabled: () => boolean;
  progressIntervalMs?: number;
  now?: () => number;
  /** The timer of the progress writes, and the clock when `now` is not given (tests hand in a fake one). */
  scheduler?: Scheduler;
  /** A save that failed, or a note that had to be left alone: said to the user. */
  onProblem?: (message: string, reason: ChatNoteProblem) => void;
  /** A chat got its note (its first save, or a new note after its old one stopped being a chat). */
  onCreated?: (path: string) => void;
  /** The values of the secrets the plugin holds: never written into a note, even when a model or a tool echoes one. */
  secrets?: () => Iterable<string>;
}

/** What is known of the note of the chat being written. */
interface NoteSession {
  /** The chat's id in the view (the controller's). */
  chatId: string;
  /** The chat id its note holds: the chat's own, or a new one once the note turned out to be one of two copies. */
  noteId: string;
  /** Where the note is: followed through renames and moves, looked for by id only when it is gone. */
  path: string | null;
  base: ChatNoteBase;
  /** The note's text as last written (or read): anything else there now was written by someone else. */
  lastText: string | null;
  /**
   * Once someone else changed the note while the chat was open: every later write starts from the
   * note as it is then, with this chat's own exchange in its place (see mergeChatNote.ts).
   */
  merging: boolean;
  /** Adopted from a note and not written since: before the first write, a copy holding the same id is looked for. */
  checkCopies: boolean;
}

/**
 * Keeps the chat shown in a view in its note: the question before the model is asked, the answer
 * while it streams (at most every `progressIntervalMs`, never per token) and when it ends. Writes
 * go one at a time through `Vault.process`, so each is whole. A note edited by hand meanwhile is
 * not overwritten: the person's version is kept and the new messages go after it; a second writer
 * of the same chat (another view, another process) re-reads the note under `process` and keeps its
 * exchange whole, after what is there. The note is followed by path (through the vault's rename
 * events), and looked for by id only when it is gone. A note that is no longer a chat is left
 * alone, and the chat goes on in a new note.
 */
export class ChatNoteWriter implements ChatPersistence {
  /** Whether the last write failed. */
  private failed = false;
  /** Stops following the vault's rename events. */
  private readonly unsubscribe: () => void;
  private session: NoteSession | null = null;
  private readonly queue = new SerialQueue();
  private timer: number | undefined;
  private waiting: ChatState | null = null;
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ChatNoteWriterOptions) {
    // A note moved or renamed (in Obsidian, or through the port) is followed to where it went.
    this.unsubscribe = options.vault.onChange((event) => {
      if (event.type === "rename" && this.session?.path === event.oldPath) this.session.path = event.path;
    });
  }

  /** The note of the chat written last (null before its first save). */
  get path(): string | null {
    return this.session?.path ?? null;
  }

  /** Whether the last write asked for failed (what it would have saved is not in the note; `onProblem` said why). */
  get lastWriteFailed(): boolean {
    return this.failed;
  }

  /** The chat shown now came from this note: later saves update it. Nothing is written. */
  adopt(record: ChatRecord, path: string, text: string): void {
    this.cancelTimer();
    this.session = { chatId: record.id, noteId: record.id, path, base: baseOf(record), lastText: text, merging: false, checkCopies: true };
  }

  questionAsked(state: ChatState): Promise<void> {
    this.cancelTimer();
    return this.write(state);
  }

  answerChanged(state: ChatState): void {
    if (!this.options.enabled() || state.messages.at(-1)?.role !== "assistant") return;
    this.waiting = state;
    if (this.timer !== undefined) return;
    const interval = this.options.progressIntervalMs ?? PROGRESS_SAVE_INTERVAL_MS;
    const wait = Math.max(0, this.lastWriteAt + interval - this.now());
    this.timer = this.scheduler().setTimeout(() => {
      this.timer = undefined;
      const latest = this.waiting;
      this.waiting = null;
      if (latest) void this.write(latest);
    }, wait);
  }

  answerEnded(state: ChatState): Promise<void> {
    this.cancelTimer();
    return this.write(state);
  }

  /** An earlier part of the chat changed (an edit undone): written at once, whole. */
  chatChanged(state: ChatState): Promise<void> {
    // Nothing to keep in a chat with no message yet, and no note made for it.
    if (state.messages.length === 0) return Promise.resolve();
    this.cancelTimer();
    return this.write(state);
  }

  /** Settles once every write asked for so far is done. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  dispose(): void {
    this.cancelTimer();
    this.unsubscribe();
  }

  private write(state: ChatState): Promise<void> {
    if (!this.options.enabled()) return Promise.resolve();
    this.lastWriteAt = this.now();
    return this.queue.run(async () => {
      try {
        await this.writeNow(state);
        this.failed = false;
      } catch (error) {
        this.failed = true;
        this.options.onProblem?.(`The chat could not be saved: ${errorMessage(error)}`, { code: "not-saved", reason: errorMessage(error) });
      }
    });
  }

  private async writeNow(state: ChatState): Promise<void> {
    const session = this.sessionFor(state);
    if (session.path !== null && !(await this.stillThere(session))) session.path = await this.findGone(session);
    const twin = session.checkCopies && session.path !== null ? await this.copyOf(session, session.path) : null;
    session.checkCopies = false;
    if (session.path === null) {
      await this.createNote(session, this.recordOf(state, session));
      return;
    }
    const ownId = twin ? newChatId(this.now()) : null;
    try {
      const path = session.path;
      session.lastText = await this.options.vault.process(path, (current) => this.textToWrite(session, current, state, twin && ownId ? { from: session.noteId, to: ownId } : null));
      if (twin && session.noteId === ownId) this.options.onProblem?.(`"${path}" held the same chat id as "${twin}" (a copy of one chat), so it now has its own: each goes on in its own note.`, { code: "same-id", path, twin });
    } catch (error) {
      if (error instanceof VaultFileNotFoundError) await this.createNote(session, this.recordOf(state, session));
      else if (error instanceof ChatNoteParseError || error instanceof VaultNotTextError) {
        const old = session.path;
        session.merging = false;
        await this.createNote(session, this.recordOf(state, session));
        const why = error instanceof VaultNotTextError ? "is no longer UTF-8 text" : "was changed so that it is no longer a chat note";
        this.options.onProblem?.(`"${old}" ${why}, so it was left as it is; this chat goes on in "${session.path}".`, {
          code: error instanceof VaultNotTextError ? "left-not-text" : "left-not-chat",
          old: old ?? "",
          path: session.path ?? "",
        });
      } else throw error;
    }
  }

  /**
   * What replaces `current`: our text, or, once someone else changed the note, the note as it is
   * with our exchange in its place. `newId`: the note is one of two copies of a chat and takes an
   * id of its own, unless a writer before us gave it one already.
   */
  private textToWrite(session: NoteSession, current: string, state: ChatState, newId: { from: string; to: string } | null): string {
    if (current === session.lastText && !session.merging && newId === null) return this.render(this.recordOf(state, session));
    const theirs = parseChat(current);
    // The note at our path is our chat's: its id is what it holds now (another writer may have given it its own).
    session.noteId = newId && theirs.id === newId.from ? newId.to : theirs.id;
    session.base = baseOf(theirs);
    if (current === session.lastText && !session.merging) return this.render(this.recordOf(state, session));
    session.merging = true;
    const ours = this.recordOf(state, session);
    const own = lastQuestionAt(state);
    const question = ours.messages[own];
    const answer = ours.messages[own + 1];
    const replaced = answer?.role === "assistant" ? answer.earlier.at(-1)?.[0] : undefined;
    const { before, after } = splitAroundOwnExchange(
      theirs.messages,
      question?.role === "user" ? this.redactedQuestion(question) : null,
      replaced?.role === "user" ? this.redactedQuestion(replaced) : null,
    );
    const mine = own === -1 ? [] : ours.messages.slice(own);
    return this.render({ ...ours, messages: [...before, ...mine, ...after] });
  }

  /** A question as the note holds it: its text with the secrets replaced. */
  private redactedQuestion(question: RecordQuestion): RecordQuestion {
    return this.options.secrets ? { ...question, text: redactSecrets(question.text, this.options.secrets()) } : question;
  }

  /**
   * The note's text, with any secret's value replaced: in a failed call's values before they are
   * written (their line writes "%" as "\u0025", which the text's redaction would not find), then
   * in the whole text.
   */
  private render(record: ChatRecord): string {
    if (!this.options.secrets) return serializeChat(record);
    const secrets = [...this.options.secrets()];
    return redactSecrets(serializeChat({ ...record, messages: failuresRedacted(record.messages, secrets) }), secrets);
  }

  private recordOf(state: ChatState, session: NoteSession): ChatRecord {
    return { ...recordFromState(state, session.base, this.now()), id: session.noteId };
  }

  private async createNote(session: NoteSession, record: ChatRecord): Promise<void> {
    const text = this.render(record);
    session.path = await this.options.history.create(record, text);
    session.lastText = text;
    this.options.onCreated?.(session.path);
  }

  private async stillThere(session: NoteSession): Promise<boolean> {
    return session.path !== null && (await this.options.vault.stat(session.path)) !== null;
  }

  /**
   * Where the note went when it left its path without a rename event (moved outside Obsidian): the
   * note holding its id, and of several (a copy beside it), the one holding what was written last.
   */
  private async findGone(session: NoteSession): Promise<string | null> {
    const holders = await this.options.history.notesWithId(session.noteId);
    if (holders.length > 1) {
      for (const path of holders) if ((await this.options.vault.read(path).catch(() => null)) === session.lastText) return path;
    }
    return holders[0] ?? null;
  }

  /** Another note holding this note's chat id in its folder or the history folder (made by "Make a copy" or a sync conflict), or null. */
  private async copyOf(session: NoteSession, path: string): Promise<string | null> {
    const folders = [folderOf(path), `${this.options.history.folder()}/`];
    const holders = await this.options.history.notesWithId(session.noteId, (note) => note !== path && folders.some((folder) => note.startsWith(folder) && !note.slice(folder.length).includes("/")));
    return holders[0] ?? null;
  }

  private sessionFor(state: ChatState): NoteSession {
    if (this.session?.chatId === state.chatId) return this.session;
    const firstAt = state.messages[0]?.role === "user" ? state.messages[0].sentAt : this.now();
    this.session = { chatId: state.chatId, noteId: state.chatId, path: null, base: freshBase(firstAt), lastText: null, merging: false, checkCopies: false };
    return this.session;
  }

  private cancelTimer(): void {
    this.scheduler().clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting = null;
  }

  private now(): number {
    return this.options.now ? this.options.now() : this.scheduler().now();
  }

  private scheduler(): Scheduler {
    return this.options.scheduler ?? realScheduler;
  }
}

/** The index of the chat's last question (the exchange being written), or -1. */
function lastQuestionAt(state: ChatState): number {
  return state.messages.findLastIndex((message) => message.role === "user");
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** A fresh chat id, for a note that turned out to share its id with a copy. */
function newChatId(now: number): string {
  return `chat-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** `messages` with every failed call's text values redacted, the earlier versions' too. */
function failuresRedacted(messages: readonly RecordMessage[], secrets: readonly string[]): RecordMessage[] {
  return messages.map((message) => {
    if (message.role === "user") return message;
    const parts = message.parts.map((part) => {
      if (part.type !== "tool" || part.failure === undefined) return part;
      const values = Object.fromEntries(Object.entries(part.failure.values).map(([name, value]) => [name, typeof value === "string" ? redactSecrets(value, secrets) : value]));
      return { ...part, failure: { kind: part.failure.kind, values } };
    });
    return { ...message, parts, earlier: message.earlier.map((version) => failuresRedacted(version, secrets)) };
  });
}

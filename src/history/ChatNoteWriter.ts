import type { ChatPersistence } from "../chat/ChatController";
import type { ChatState } from "../chat/chatTypes";
import { errorMessage } from "../errorMessage";
import { SerialQueue } from "../ports/serialQueue";
import { redactSecrets } from "../settings/secrets";
import { realScheduler, type Scheduler } from "../ports/timers";
import { VaultFileNotFoundError, type VaultPort } from "../vault/VaultPort";
import type { ChatRecord, RecordMessage } from "./chatRecord";
import type { ChatHistory } from "./ChatHistory";
import { ChatNoteParseError, parseChat, serializeChat } from "./chatNoteFormat";
import { baseOf, freshBase, recordFromState, type ChatNoteBase } from "./chatStateRecord";

/** How often a streaming answer is written at most. */
export const PROGRESS_SAVE_INTERVAL_MS = 2000;

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
  onProblem?: (message: string) => void;
  /** A chat got its note (its first save, or a new note after its old one stopped being a chat). */
  onCreated?: (path: string) => void;
  /** The values of the secrets the plugin holds: never written into a note, even when a model or a tool echoes one. */
  secrets?: () => Iterable<string>;
}

/** What is known of the note of the chat being written. */
interface NoteSession {
  chatId: string;
  path: string | null;
  base: ChatNoteBase;
  /** The note's text as last written (or read): anything else there now was written by someone else. */
  lastText: string | null;
  /** How many of the chat's messages were settled (not an answer still arriving) at the last write. */
  settled: number;
  /**
   * After a person edited the note while the chat was open: their version of the messages, which
   * stands for the chat's first `replaces` messages in every later write (their edit is kept).
   */
  edited: { messages: RecordMessage[]; replaces: number } | null;
}

/**
 * Keeps the chat shown in a view in its note: the question before the model is asked, the answer
 * while it streams (at most every `progressIntervalMs`, never per token) and when it ends. Writes
 * go one at a time through `Vault.process`, so each is whole. A note edited by hand meanwhile is
 * not overwritten: the person's version is kept and the new messages go after it. A note that is
 * no longer a chat is left alone, and the chat goes on in a new note.
 */
export class ChatNoteWriter implements ChatPersistence {
  private session: NoteSession | null = null;
  private readonly queue = new SerialQueue();
  private timer: number | undefined;
  private waiting: ChatState | null = null;
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ChatNoteWriterOptions) {}

  /** The note of the chat written last (null before its first save). */
  get path(): string | null {
    return this.session?.path ?? null;
  }

  /** The chat shown now came from this note: later saves update it. Nothing is written. */
  adopt(record: ChatRecord, path: string, text: string): void {
    this.cancelTimer();
    this.session = { chatId: record.id, path, base: baseOf(record), lastText: text, settled: record.messages.length, edited: null };
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

  /** Settles once every write asked for so far is done. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  dispose(): void {
    this.cancelTimer();
  }

  private write(state: ChatState): Promise<void> {
    if (!this.options.enabled()) return Promise.resolve();
    this.lastWriteAt = this.now();
    return this.queue.run(async () => {
      try {
        await this.writeNow(state);
      } catch (error) {
        this.options.onProblem?.(`The chat could not be saved: ${errorMessage(error)}`);
      }
    });
  }

  private async writeNow(state: ChatState): Promise<void> {
    const session = this.sessionFor(state);
    const record = this.recordOf(state, session);
    const text = this.render(record);
    if (session.path !== null && !(await this.stillThere(session))) session.path = await this.options.history.findById(session.chatId);
    if (session.path === null) {
      await this.createNote(session, record, text);
    } else {
      try {
        const written = await this.options.vault.process(session.path, (current) => this.textToWrite(session, current, state, text));
        session.lastText = written;
      } catch (error) {
        if (error instanceof VaultFileNotFoundError) await this.createNote(session, record, text);
        else if (error instanceof ChatNoteParseError) {
          const old = session.path;
          session.edited = null;
          const whole = this.recordOf(state, session);
          await this.createNote(session, whole, this.render(whole));
          this.options.onProblem?.(`"${old}" was changed so that it is no longer a chat note, so it was left as it is; this chat goes on in "${session.path}".`);
        } else throw error;
      }
    }
    session.settled = settledCount(state);
  }

  /** What replaces `current`: our text, or, when someone else changed the note, their version with our new messages after it. */
  private textToWrite(session: NoteSession, current: string, state: ChatState, text: string): string {
    if (current === session.lastText) return text;
    const theirs = parseChat(current);
    if (theirs.id !== session.chatId) throw new ChatNoteParseError("its chat-id changed");
    // Their copy of an answer that was still arriving is ours to finish.
    const last = theirs.messages.at(-1);
    const messages = last?.role === "assistant" && last.status === "partial" ? theirs.messages.slice(0, -1) : theirs.messages;
    session.edited = { messages, replaces: session.settled };
    session.base = baseOf(theirs);
    return this.render(this.recordOf(state, session));
  }

  /** The note's text, with any secret's value replaced. */
  private render(record: ChatRecord): string {
    const text = serializeChat(record);
    return this.options.secrets ? redactSecrets(text, this.options.secrets()) : text;
  }

  private recordOf(state: ChatState, session: NoteSession): ChatRecord {
    const record = recordFromState(state, session.base, this.now());
    if (session.edited) record.messages = [...session.edited.messages, ...record.messages.slice(session.edited.replaces)];
    return record;
  }

  private async createNote(session: NoteSession, record: ChatRecord, text: string): Promise<void> {
    session.path = await this.options.history.create(record, text);
    session.lastText = text;
    this.options.onCreated?.(session.path);
  }

  private async stillThere(session: NoteSession): Promise<boolean> {
    return session.path !== null && (await this.options.vault.stat(session.path)) !== null;
  }

  private sessionFor(state: ChatState): NoteSession {
    if (this.session?.chatId === state.chatId) return this.session;
    const firstAt = state.messages[0]?.role === "user" ? state.messages[0].sentAt : this.now();
    this.session = { chatId: state.chatId, path: null, base: freshBase(firstAt), lastText: null, settled: 0, edited: null };
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

/** Messages that will not change any more: all but an answer still arriving. */
function settledCount(state: ChatState): number {
  const last = state.messages.at(-1);
  return last?.role === "assistant" && last.status === "streaming" ? state.messages.length - 1 : state.messages.length;
}

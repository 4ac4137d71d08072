import { ContextManager } from "../context/ContextManager";
import type { ConversationTurn } from "../context/PromptContextTypes";
import type { ChainEvent, ChainRunInput, ChainRunResult } from "../LLMProviders/chainRunner/ChainEvents";
import type { ChatMode } from "../settings/settingsSchema";
import type { ApprovalDecision, EditProposal, RunApprovals, ToolCallProposal } from "../ports/approval";
import { applyChainEvent } from "./applyChainEvent";
import { errorMessage } from "../errorMessage";
import {
  answerText,
  finalAnswerText,
  isAssistant,
  type AssistantMessage,
  type ChatMessage,
  type ChatState,
  type ContextChip,
  type PendingApproval,
  type UserMessage,
  shownLine,
} from "./chatTypes";
import { noteChip, type ReadChips } from "./chipArtifacts";
import type { ChipProblemCase } from "./chipProblems";
import { questionContext, untoldUndoneEdits } from "./undoneEdits";

/**
 * What the controller tells beside a problem's sentence: a chip's case (see chipProblems.ts), or
 * the error that kept a message from being sent, for the chat's owner to name (it knows the
 * errors of projects, which this folder does not; see app/sendFailure.ts).
 */
export type ChatProblemReason = { about: "chip"; case: ChipProblemCase } | { about: "thrown"; error: unknown };

/** What runs a turn: one of the three chain runners. */
export interface ChatRunner {
  run(input: ChainRunInput): Promise<ChainRunResult>;
}

export interface ChatControllerDependencies {
  /**
   * The runner of a mode, answering with a model, inside a project when one is named (null: the
   * whole vault). Built per turn, so settings and the project's note apply at once.
   */
  createRunner(mode: ChatMode, model: string, project: string | null): ChatRunner;
  /** Reads the chips of a message into artifacts; problems and notices (what was left out) are shown, not thrown. */
  readContext(chips: readonly ContextChip[], signal: AbortSignal): Promise<ReadChips>;
  /** The mode and model of a new chat (from the settings), and its project (none unless given). */
  defaults(): { mode: ChatMode; model: string; project?: string | null };
  /**
   * True for a chat a person sees (the chat view): each of its runs carries this controller as
   * its approvals, so the run's tools ask in this conversation and nowhere else. A headless chat
   * (the CLI) leaves the question to the approval port the tools were built with.
   */
  asksApprovals?: boolean;
  /**
   * Runs `flush` soon, once however often it is asked before it runs: streamed text reaches the
   * view at most once per frame (the view passes its frames, fewer while the user types), not
   * once per token.
   */
  scheduleFlush?: (flush: () => void) => void;
  now?: () => number;
  /** Told when context could not be read, or a message could not be sent (e.g. a Notice): the English sentence and its case. */
  onProblem?: (message: string, reason?: ChatProblemReason) => void;
  /** Keeps the chat somewhere (its note); told at the moments a chat is worth saving. */
  persistence?: ChatPersistence;
}

/**
 * Where a chat is kept as it goes. The controller only says when; what and how is the
 * persistence's business, and its failures are its own to report (they never stop a chat).
 */
export interface ChatPersistence {
  /** A question was added with its (empty) answer: resolves once it is kept, before the model is asked. */
  questionAsked(state: ChatState): Promise<void>;
  /** The answer grew (many times a second while it streams): keep it now and then. */
  answerChanged(state: ChatState): void;
  /** The answer ended (done, stopped or failed). */
  answerEnded(state: ChatState): Promise<void>;
  /** Something said earlier changed outside a run (an edit the user undid): keep it now. */
  chatChanged(state: ChatState): Promise<void>;
}

/** How one message is sent, when it is not the plain case (a prompt of the user's runs so). */
export interface SendOptions {
  /** Context for this message besides the chips of the box (what a prompt's variables attached). */
  chips?: readonly ContextChip[];
  /** The mode and model this message runs in (a prompt that names them); the chat's own stay. */
  mode?: ChatMode;
  model?: string;
  /** Wraps the runner of this message (an edit prompt applies its answer to the selection after it). */
  wrapRunner?: (runner: ChatRunner) => ChatRunner;
  /** What the user wrote, when `text` was made from it (a prompt's name and note): shown instead of `text`. */
  shown?: string;
  /** The answer is a rewrite shown as the edit it proposes (see `AssistantMessage.rewrite`). */
  rewrite?: true;
}

/** A chat to show again, from its note (see history/restoreChat). */
export interface RestoredChat {
  chatId: string;
  mode: ChatMode;
  model: string;
  /** The project the chat was in (null or absent: none). */
  project?: string | null;
  messages: readonly ChatMessage[];
}

type Listener = () => void;

/**
 * One chat: the conversation, the run going on, the context for the next message, the approvals
 * waiting. A plain class without React: the view subscribes to `getState()` and calls the actions;
 * only this class talks to a runner. State is replaced on every change (never changed in place),
 * so a message that did not change keeps its identity and is not drawn again.
 */
export class ChatController implements RunApprovals {
  private state: ChatState;
  private readonly listeners = new Set<Listener>();
  private flushPending = false;
  /** Streamed text not yet folded into the state (see onEvent). */
  private pendingText: { messageId: string; step: number; text: string } | null = null;
  private run: { abort: AbortController; done: Promise<void> } | null = null;
  /** How the last question was sent (its prompt's mode, model and runner): Regenerate sends it so again. */
  private lastSend: { questionId: string; options: SendOptions } | null = null;
  private nextId = 1;
  private announcements = 0;
  private closing = false;
  private disposed = false;

  constructor(private readonly dependencies: ChatControllerDependencies) {
    this.state = this.emptyState();
  }

  getState = (): ChatState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Sends a message with the context chips, and streams the answer. Ignored while a reply runs. */
  async send(text: string, options: SendOptions = {}): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed || this.state.running || this.closing) return;
    const boxChips = this.chipsForMessage();
    const chips = [...boxChips, ...(options.chips ?? []).filter((chip) => !boxChips.some((existing) => existing.id === chip.id))];
    // The chips go with this message; those added by hand are spent (they join L2 from now on).
    this.update({ chips: [] });
    await this.exclusiveRun(async (signal) => {
      const { artifacts, problems, notices = [] } = await this.dependencies.readContext(chips, signal);
      for (const problem of [...problems, ...notices]) this.dependencies.onProblem?.(problem.text, { about: "chip", case: problem.case });
      const shown = options.shown === undefined ? "" : shownLine(options.shown);
      return this.tellingUndoneEdits({ id: this.newId("user"), role: "user", text: trimmed, ...(shown ? { shown } : {}), chips, artifacts, sentAt: this.now() });
    }, [], options);
  }

  /** Stops the reply going on: what arrived stays, nothing arrives after. */
  stop(): void {
    this.run?.abort.abort();
  }

  /** Stops any reply and starts an empty chat with the default mode and model. */
  async newChat(): Promise<void> {
    await this.stopAndWait();
    const { activeNote } = this.state;
    this.replaceState({ ...this.emptyState(), activeNote: activeNote ? { path: activeNote.path, included: true } : null });
  }

  /** Shows a saved chat (stopping any reply): it goes on from where it stopped. Nothing is saved by showing it. */
  async restore(chat: RestoredChat): Promise<void> {
    await this.stopAndWait();
    const { activeNote } = this.state;
    this.replaceState({
      ...this.emptyState(),
      chatId: chat.chatId,
      mode: chat.mode,
      model: chat.model || this.state.model,
      project: chat.project ?? null,
      messages: chat.messages,
      activeNote: activeNote ? { path: activeNote.path, included: true } : null,
    });
  }

  /** Asks again for the last answer (with the same question and context); the old answer is kept as an earlier version. */
  async regenerate(): Promise<void> {
    const lastUser = this.lastUserMessage();
    if (!lastUser || this.state.running) return;
    const options = this.lastSend?.questionId === lastUser.id ? this.lastSend.options : {};
    const earlier = this.dropFrom(lastUser.id);
    await this.exclusiveRun(() => Promise.resolve(this.tellingUndoneEdits({ ...lastUser, id: this.newId("user"), sentAt: this.now() })), earlier, options);
  }

  /** A failed answer asked for again: the same as Regenerate. */
  retry(): Promise<void> {
    return this.regenerate();
  }

  /** Replaces the last question with `text` and sends it again (its context stays). */
  async editLastQuestion(text: string): Promise<void> {
    const lastUser = this.lastUserMessage();
    const trimmed = text.trim();
    if (!lastUser || !trimmed || this.state.running) return;
    const earlier = this.dropFrom(lastUser.id);
    // The new text is the user's own words: nothing else is shown for it.
    const { shown: _prompted, ...typed } = lastUser;
    await this.exclusiveRun(() => Promise.resolve(this.tellingUndoneEdits({ ...typed, id: this.newId("user"), text: trimmed, sentAt: this.now() })), earlier);
  }

  /**
   * Puts the chat in a project (null: none, the whole vault), in the project's mode and model when
   * its note names them. A chat belongs to one project: one that has begun goes on as it is and
   * a new chat starts in the project, so no earlier turn carries notes from elsewhere into it.
   */
  async setProject(project: string | null, settings: { mode?: ChatMode; model?: string } = {}): Promise<void> {
    const mode = settings.mode ?? this.state.mode;
    const model = settings.model?.trim() || this.state.model;
    if (this.state.messages.length > 0 || this.state.running) await this.newChat();
    this.update({ project, mode, model });
  }

  setMode(mode: ChatMode): void {
    this.update({ mode });
  }

  setModel(model: string): void {
    if (model.trim()) this.update({ model: model.trim() });
  }

  /** The note open in the editor changed (null: none). Its chip comes back on for each new note. */
  setActiveNote(path: string | null): void {
    if (path === this.state.activeNote?.path) return;
    this.update({ activeNote: path === null ? null : { path, included: true } });
  }

  /** The active note's chip removed (false) or put back (true). */
  includeActiveNote(included: boolean): void {
    if (this.state.activeNote) this.update({ activeNote: { ...this.state.activeNote, included } });
  }

  addChip(chip: ContextChip): void {
    if (this.state.chips.some((existing) => existing.id === chip.id)) return;
    this.update({ chips: [...this.state.chips, chip] });
  }

  removeChip(id: string): void {
    this.update({ chips: this.state.chips.filter((chip) => chip.id !== id) });
  }

  /** The user's answer to an approval shown in the conversation. */
  answerApproval(id: string, decision: ApprovalDecision): void {
    const approval = this.state.approvals.find((entry) => entry.id === id);
    if (!approval) return;
    this.update({ approvals: this.state.approvals.filter((entry) => entry !== approval) });
    approval.resolve(decision);
  }

  /**
   * The user took back the edit a tool call made (its banner's Undo, which restored the note): the
   * banner says so from now on, the chat's note keeps it, and the next question tells the model.
   */
  async markEditUndone(messageId: string, toolCallId: string, path: string): Promise<void> {
    let found = false;
    const messages = this.state.messages.map((message) => {
      if (message.id !== messageId || !isAssistant(message)) return message;
      const parts = message.parts.map((part) => {
        if (part.type !== "tool-call" || part.id !== toolCallId || part.undone) return part;
        found = true;
        return { ...part, undone: { path } };
      });
      return found ? { ...message, parts } : message;
    });
    if (!found) return;
    this.update({ messages });
    await this.persistence?.chatChanged(this.state);
  }

  requestApproval(proposal: EditProposal, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.ask(signal, (id, resolve) => ({ id, kind: "edit", proposal, resolve }));
  }

  requestToolCallApproval(proposal: ToolCallProposal, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.ask(signal, (id, resolve) => ({ id, kind: "tool-call", proposal, resolve }));
  }

  /**
   * The view closes: nothing is drawn any more, no message is taken, and the reply stops (its end
   * is still folded in and kept, so a chat closed mid-answer keeps what arrived).
   */
  async dispose(): Promise<void> {
    this.closing = true;
    this.listeners.clear();
    await this.stopAndWait();
    this.disposed = true;
  }

  /**
   * The finished exchanges, oldest first: what the next request carries in L4 (the words) and L2
   * (the attachments). Derived from the messages alone, so a chat restored from its note goes on
   * with the same prefix as the chat that wrote it.
   */
  completedTurns(): ConversationTurn[] {
    const turns: ConversationTurn[] = [];
    let question: UserMessage | undefined;
    for (const message of this.state.messages) {
      if (message.role === "user") question = message;
      else if (question && message.status === "done") {
        turns.push({ userMessage: question.text, attachments: questionContext(this.state.messages, question), assistantMessage: finalAnswerText(message) });
        question = undefined;
      }
    }
    return turns;
  }

  /**
   * One reply at a time: marks the chat running (Stop works from here on, even while the context
   * is read), makes the question, streams the answer into a new message, and always ends running.
   */
  private async exclusiveRun(makeQuestion: (signal: AbortSignal) => Promise<UserMessage>, earlier: readonly (readonly ChatMessage[])[] = [], options: SendOptions = {}): Promise<void> {
    const abort = new AbortController();
    let resolveDone!: () => void;
    this.run = { abort, done: new Promise<void>((resolve) => (resolveDone = resolve)) };
    this.update({ running: true });
    let answerId: string | undefined;
    try {
      const user = await makeQuestion(abort.signal);
      this.lastSend = { questionId: user.id, options };
      const mode = options.mode ?? this.state.mode;
      const model = options.model ?? this.state.model;
      const assistant: AssistantMessage = {
        id: this.newId("answer"),
        role: "assistant",
        parts: [],
        status: "streaming",
        mode,
        model,
        startedAt: this.now(),
        ...(earlier.length > 0 ? { earlier } : {}),
        ...(options.rewrite ? { rewrite: true as const } : {}),
      };
      answerId = assistant.id;
      const conversation = new ContextManager(this.completedTurns());
      const attachments = questionContext(this.state.messages, user);
      this.update({ messages: [...this.state.messages, user, assistant] });
      // The question is kept before the model is asked: a crash from here on loses only the answer's tail.
      await this.persistence?.questionAsked(this.state);
      const runner = this.dependencies.createRunner(mode, model, this.state.project);
      await (options.wrapRunner?.(runner) ?? runner).run({
        userMessage: user.text,
        attachments,
        conversation,
        signal: abort.signal,
        // The run's tools ask this chat, whatever other chat runs at the same time.
        ...(this.dependencies.asksApprovals ? { approvals: this } : {}),
        onEvent: (event) => this.onEvent(assistant.id, event),
      });
    } catch (error) {
      // Runners report failures as events; what is thrown past them (or while reading the context) is shown all the same.
      if (answerId) this.onEvent(answerId, { type: "error", kind: abort.signal.aborted ? "aborted" : "failed", message: errorMessage(error), partialText: "" });
      else if (!abort.signal.aborted) this.dependencies.onProblem?.(errorMessage(error), { about: "thrown", error });
    } finally {
      this.run = null;
      const finished = answerId ? this.findAssistant(answerId) : undefined;
      this.update({ running: false, announcement: finished ? this.announcementFor(finished) : this.state.announcement });
      if (finished) await this.persistence?.answerEnded(this.state);
      resolveDone();
    }
  }

  private onEvent(messageId: string, event: ChainEvent): void {
    if (this.disposed) return;
    // Text arrives per token: it is gathered and folded into the state once per frame (at the
    // flush), so a long answer does not copy the message list per token. Everything else is
    // folded and drawn at once, after the text that came before it.
    if (event.type === "text-delta") {
      if (this.pendingText && (this.pendingText.messageId !== messageId || this.pendingText.step !== event.step)) this.foldPendingText();
      this.pendingText ??= { messageId, step: event.step, text: "" };
      this.pendingText.text += event.text;
      this.scheduleFlush();
      return;
    }
    this.foldPendingText();
    this.foldEvent(messageId, event);
    this.flush();
  }

  private foldPendingText(): void {
    const pending = this.pendingText;
    if (!pending) return;
    this.pendingText = null;
    this.foldEvent(pending.messageId, { type: "text-delta", step: pending.step, text: pending.text });
  }

  private foldEvent(messageId: string, event: ChainEvent): void {
    const now = this.now();
    this.state = {
      ...this.state,
      messages: this.state.messages.map((message) => (message.id === messageId && isAssistant(message) ? applyChainEvent(message, event, now) : message)),
    };
  }

  private ask(signal: AbortSignal, make: (id: string, resolve: (decision: ApprovalDecision) => void) => PendingApproval): Promise<ApprovalDecision> {
    return new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) {
        resolve({ approved: false, reason: "the run was stopped" });
        return;
      }
      // A closed chat shows nothing: a question that reaches it late is refused, never left waiting.
      if (this.closing) {
        resolve({ approved: false, reason: "the chat was closed" });
        return;
      }
      const id = this.newId("approval");
      let settled = false;
      const settle = (decision: ApprovalDecision) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        resolve(decision);
      };
      const onAbort = () => this.answerApproval(id, { approved: false, reason: "the run was stopped" });
      signal.addEventListener("abort", onAbort, { once: true });
      const approval = make(id, settle);
      // Said aloud, never given the focus: a card that took it could be accepted by the next key
      // the user types in the message box.
      this.update({ approvals: [...this.state.approvals, approval], announcement: { id: ++this.announcements, text: approvalAnnouncement(approval), about: { approval } } });
    });
  }

  private announcementFor(message: AssistantMessage): ChatState["announcement"] {
    const id = ++this.announcements;
    const about = { answer: message };
    if (message.status === "done") return { id, text: `Copilot answered: ${answerText(message)}`, about };
    if (message.status === "stopped") return { id, text: "The answer was stopped.", about };
    return { id, text: `The answer failed: ${message.error?.message ?? "unknown error"}`, about };
  }

  /** A question as it is sent: with the edits the user undid since the last one, for the model to hear of. */
  private tellingUndoneEdits(question: UserMessage): UserMessage {
    const { undoneEdits: _told, ...rest } = question;
    const untold = untoldUndoneEdits(this.state.messages);
    return untold.length > 0 ? { ...rest, undoneEdits: untold } : rest;
  }

  private chipsForMessage(): ContextChip[] {
    const { activeNote, chips } = this.state;
    const active = activeNote?.included ? [noteChip(activeNote.path)] : [];
    return [...active, ...chips.filter((chip) => !active.some((note) => note.id === chip.id))];
  }

  private lastUserMessage(): UserMessage | undefined {
    return this.state.messages.findLast((message): message is UserMessage => message.role === "user");
  }

  private findAssistant(id: string): AssistantMessage | undefined {
    return this.state.messages.find((message): message is AssistantMessage => message.id === id && isAssistant(message));
  }

  /**
   * Removes a message and everything after it (Regenerate and Edit replace the last exchange) and
   * returns the earlier versions the new answer keeps: the removed exchange's own, then it.
   */
  private dropFrom(messageId: string): (readonly ChatMessage[])[] {
    const index = this.state.messages.findIndex((message) => message.id === messageId);
    if (index === -1) return [];
    const removed = this.state.messages.slice(index);
    this.update({ messages: this.state.messages.slice(0, index) });
    const answer = removed.find(isAssistant);
    const { earlier = [] } = answer ?? {};
    const version = removed.map((message) => (isAssistant(message) ? { ...message, earlier: undefined } : message));
    return [...earlier, version];
  }

  private async stopAndWait(): Promise<void> {
    const run = this.run;
    if (!run) return;
    run.abort.abort();
    await run.done;
  }

  private emptyState(): ChatState {
    const { mode, model, project = null } = this.dependencies.defaults();
    return {
      chatId: this.newId("chat"),
      messages: [],
      mode,
      model,
      project,
      running: false,
      activeNote: null,
      chips: [],
      approvals: [],
      announcement: null,
    };
  }

  private update(change: Partial<ChatState>): void {
    this.replaceState({ ...this.state, ...change });
  }

  private replaceState(next: ChatState): void {
    if (this.disposed) return;
    this.state = next;
    this.flush();
  }

  private scheduleFlush(): void {
    if (this.flushPending) return;
    this.flushPending = true;
    const schedule = this.dependencies.scheduleFlush ?? ((flush: () => void) => queueMicrotask(flush));
    schedule(() => {
      if (this.flushPending) this.flush();
    });
  }

  private flush(): void {
    this.flushPending = false;
    this.foldPendingText();
    for (const listener of [...this.listeners]) listener();
    if (this.state.running) this.persistence?.answerChanged(this.state);
  }

  private get persistence(): ChatPersistence | undefined {
    return this.dependencies.persistence;
  }

  private newId(kind: string): string {
    return `${kind}-${Date.now().toString(36)}-${this.nextId++}`;
  }

  private now(): number {
    return (this.dependencies.now ?? Date.now)();
  }
}

/** What a screen reader hears when an approval appears: "Copilot wants to edit Daily/2026-12-01.md". */
export function approvalAnnouncement(approval: PendingApproval): string {
  if (approval.kind === "edit") return `Copilot wants to ${approval.proposal.before === null ? "create" : "edit"} ${approval.proposal.path}`;
  return `Copilot wants to run ${approval.proposal.toolName} from ${approval.proposal.source}`;
}

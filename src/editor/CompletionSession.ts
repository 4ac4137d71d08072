import { errorMessage } from "../errorMessage";
import { classifyModelError, type ModelErrorKind } from "../net/modelErrors";
import type { ModelPrices } from "../settings/settingsSchema";
import type { Scheduler } from "../ports/timers";
import { completionContext, type CompletionContext } from "./completionContext";
import type { CompletionResult } from "./completionClient";
import { whyNoCompletion } from "./completionPlace";
import type { CompletionUsage } from "./completionUsage";

/** The editor as the session sees it after a change. */
export interface EditorSnapshot {
  text: string;
  /** The cursor (the selection's head), as a UTF-16 offset. */
  cursor: number;
  selection: boolean;
  /** The note's vault path ("" when the editor shows no file). */
  path: string;
}

/** The completion settings the session reads at each pause (they may change while it runs). */
export interface CompletionPolicy {
  enabled: boolean;
  pauseMs: number;
  onMobile: boolean;
  dailyRequestCap: number;
  prices: ModelPrices;
}

/** Ghost text: a suggestion shown at `at`, not part of the note until accepted. */
export interface Ghost {
  at: number;
  text: string;
}

export interface CompletionSessionPorts {
  policy(): CompletionPolicy;
  mobile: boolean;
  scheduler: Scheduler;
  usage: CompletionUsage;
  /** Asks the completion model; `onText` gets the suggestion as it grows. Throws on failure, and with the signal's reason when aborted. */
  complete(context: CompletionContext, signal: AbortSignal, onText: (text: string) => void): Promise<CompletionResult>;
  /** Shows ghost text (replacing any shown). */
  show(ghost: Ghost): void;
  /** Takes the ghost text away. */
  clear(): void;
  /**
   * Tells the user something (the daily cap reached, a failing server): once each, not at every
   * pause. `message` is the English sentence; `notice` what happened, for a view that says it in
   * the interface's language.
   */
  notify(message: string, notice: CompletionNotice): void;
}

/** What a completion notice tells: today's cap reached, or the request failed (its model error's kind). */
export type CompletionNotice = { kind: "daily-cap"; cap: number } | { kind: "failed"; error: ModelErrorKind };

/**
 * One editor's inline completion, without the editor: the pause, the request and what stops it.
 * - After each change the user types the session waits `pauseMs` of quiet, then asks only where
 *   completion may run (whyNoCompletion) and only while today's requests are under the cap.
 * - At most one request is in flight: any change (a key typed, the cursor moved) aborts it
 *   before anything else happens, so a suggestion never lands where the user no longer is and a
 *   provider billing per generated token stops generating.
 * - Past the cap it pauses with one notice a day; a failing server is told once per message.
 */
export class CompletionSession {
  private timer: number | undefined;
  private inFlight: AbortController | null = null;
  private snapshot: EditorSnapshot | null = null;
  private capNoticeDay: string | null = null;
  private lastFailure: string | null = null;
  private disposed = false;

  constructor(private readonly ports: CompletionSessionPorts) {}

  /**
   * The editor changed. `how`: "typed", the user typed or deleted (a pause after it asks);
   * "moved", the cursor moved or the text changed by something other than typing (a click, an
   * arrow key, a sync writing the note: the ghost goes and nothing is asked, as completion follows
   * a pause in typing); "kept", the user typed the ghost text's own next characters, so it stays
   * and nothing new is asked.
   */
  changed(snapshot: EditorSnapshot, how: "typed" | "moved" | "kept" = "typed"): void {
    this.snapshot = snapshot;
    this.abort();
    if (how === "kept" || this.disposed) return;
    this.ports.clear();
    const policy = this.ports.policy();
    if (!policy.enabled || how === "moved") return;
    this.timer = this.ports.scheduler.setTimeout(() => {
      this.timer = undefined;
      void this.ask(snapshot);
    }, policy.pauseMs);
  }

  /** Stops the wait and any request, and takes the ghost text away (the editor lost focus, a key dismissed it). */
  dismiss(): void {
    this.abort();
    this.ports.clear();
  }

  /** Whether a request is in flight (for tests and the benchmark). */
  get requesting(): boolean {
    return this.inFlight !== null;
  }

  dispose(): void {
    this.disposed = true;
    this.dismiss();
  }

  private abort(): void {
    this.ports.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight?.abort(new DOMException("The editor changed: the completion is no longer wanted.", "AbortError"));
    this.inFlight = null;
  }

  private async ask(snapshot: EditorSnapshot): Promise<void> {
    const { ports } = this;
    const policy = ports.policy();
    if (!policy.enabled || this.disposed) return;
    const blocked = whyNoCompletion({ text: snapshot.text, cursor: snapshot.cursor, selection: snapshot.selection, mobile: ports.mobile, allowedOnMobile: policy.onMobile });
    if (blocked) return;
    const controller = new AbortController();
    this.inFlight = controller;
    const now = ports.scheduler.now();
    const sent = await ports.usage.requestsToday(now);
    if (controller.signal.aborted) return;
    if (sent >= policy.dailyRequestCap) {
      this.inFlight = null;
      this.noticeCap(now, policy.dailyRequestCap);
      return;
    }
    // Counted, and written in the background: the file's write is no reason to make the user wait.
    void ports.usage.countRequest(now);
    const context = completionContext(snapshot.path, snapshot.text, snapshot.cursor);
    const current = () => !controller.signal.aborted && this.snapshot === snapshot;
    try {
      const result = await ports.complete(context, controller.signal, (text) => {
        if (current() && text) ports.show({ at: snapshot.cursor, text });
      });
      if (this.inFlight === controller) this.inFlight = null;
      this.lastFailure = null;
      await ports.usage.countUsage(ports.scheduler.now(), result.usage, policy.prices);
      if (!current()) return;
      if (result.text) ports.show({ at: snapshot.cursor, text: result.text });
      else ports.clear();
    } catch (error) {
      if (this.inFlight === controller) this.inFlight = null;
      if (controller.signal.aborted) {
        // Stopped before the server reported its tokens: counted as a request whose cost is unknown.
        await ports.usage.countUsage(ports.scheduler.now(), null, policy.prices);
        return;
      }
      const message = `Inline completion failed: ${errorMessage(error)}`;
      if (message !== this.lastFailure) ports.notify(message, { kind: "failed", error: failureKind(error) });
      this.lastFailure = message;
    }
  }

  private noticeCap(now: number, cap: number): void {
    const day = new Date(now).toDateString();
    if (this.capNoticeDay === day) return;
    this.capNoticeDay = day;
    this.ports.notify(`Inline completion is paused until tomorrow: today's ${cap} requests (the daily cap in Vault Copilot's settings) have been sent.`, { kind: "daily-cap", cap });
  }
}

/**
 * A failed completion's kind, as the chat's model errors are sorted: the completer throws a
 * ModelError for a missing key, the client an HttpStatusError, fetch its own errors. Only the
 * kind is used here; the sentence is the message the session already made.
 */
function failureKind(error: unknown): ModelErrorKind {
  return classifyModelError(error, { providerName: "", baseUrl: "", model: "", unreachableHint: "", receivedAnything: false }).kind;
}

import { realScheduler, type Scheduler } from "../ports/timers";
import { ModelError } from "./modelErrors";

/**
 * How long a model or embeddings request may stay silent, before its first byte or between two
 * pieces, before it is given up: a server that accepts and never answers must not leave a spinner
 * (or a command) waiting for good. Long enough for a local model loading into memory or thinking
 * before its first token.
 */
export const MODEL_IDLE_TIMEOUT_MS = 120_000;

/**
 * Calls `onSilence` once nothing has happened for `idleMs` since the last `activity()`. One timer
 * per silence, not per piece: a piece only notes the time; when the timer fires early (pieces
 * came meanwhile) it is set again for the rest of the silence.
 */
export class SilenceWatch {
  private timer: number | undefined;
  private lastActivity = 0;
  private fired = false;

  constructor(
    readonly idleMs: number,
    private readonly onSilence: () => void,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  /** True once the silence outlasted the limit. */
  get timedOut(): boolean {
    return this.fired;
  }

  /** Something arrived (or the request starts): the silence begins again. */
  activity(): void {
    this.lastActivity = this.scheduler.now();
    if (this.timer === undefined && !this.fired) this.arm(this.idleMs);
  }

  stop(): void {
    this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(wait: number): void {
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = undefined;
      const silentFor = this.scheduler.now() - this.lastActivity;
      if (silentFor < this.idleMs) {
        this.arm(this.idleMs - silentFor);
        return;
      }
      this.fired = true;
      this.onSilence();
    }, wait);
  }
}

/** Not retried: a server silent this long is stuck or overloaded, and a retry would double the wait. */
export function silenceError(server: string, idleMs: number, receivedAnything: boolean): ModelError {
  const seconds = Number((idleMs / 1000).toFixed(1));
  const kept = receivedAnything ? "; the part that arrived is kept" : "";
  return new ModelError("timeout", `${server} did not answer for ${seconds} s${kept}.`);
}

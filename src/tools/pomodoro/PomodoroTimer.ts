import type { ToolFailure } from "../../errorMessage";
import type { Clock } from "../../ports/Clock";
import { clearTimer, setTimer } from "../../ports/timers";
import type { PomodoroDisplay, PomodoroTimers } from "./PomodoroDisplay";

export interface RunningPomodoro {
  running: true;
  label?: string;
  minutes: number;
  /** Epoch ms. */
  startedAt: number;
  endsAt: number;
  remainingMs: number;
}

export interface IdlePomodoro {
  running: false;
  /** The last one that ran to its end, if any. */
  lastFinished?: { label?: string; minutes: number; endedAt: number };
}

export type PomodoroStatus = RunningPomodoro | IdlePomodoro;

export class PomodoroAlreadyRunningError extends Error {
  readonly failure: ToolFailure;
  constructor(readonly current: RunningPomodoro) {
    super(
      `A pomodoro${current.label ? ` ("${current.label}")` : ""} is already running with ${formatRemaining(current.remainingMs)} left. ` +
        'Stop it first (action "stop") if the user wants a new one.',
    );
    this.name = "PomodoroAlreadyRunningError";
    this.failure = { kind: "timer-running", values: { count: Math.max(1, Math.ceil(current.remainingMs / 60_000)) } };
  }
}

export interface PomodoroTimerOptions {
  clock: Clock;
  /** Without a display nothing is scheduled: the timer is read from the clock when asked. */
  display?: PomodoroDisplay;
  timers?: PomodoroTimers;
  /** How often the display is refreshed (default every second). */
  tickMs?: number;
}

/**
 * A focus timer over the Clock port. Time left is always computed from the clock, so a paused
 * or throttled window never makes it drift; the timers only refresh the display and fire the
 * end notice.
 */
export class PomodoroTimer {
  private current: { label?: string; minutes: number; startedAt: number; endsAt: number } | null = null;
  private lastFinished: IdlePomodoro["lastFinished"];
  private tickHandle: unknown;
  private readonly clock: Clock;
  private readonly display: PomodoroDisplay | undefined;
  private readonly timers: PomodoroTimers;
  private readonly tickMs: number;

  constructor(options: PomodoroTimerOptions) {
    this.clock = options.clock;
    this.display = options.display;
    this.timers = options.timers ?? { setTimeout: (callback, ms) => setTimer(callback, ms), clearTimeout: (handle) => clearTimer(handle as number | undefined) };
    this.tickMs = options.tickMs ?? 1000;
  }

  start(minutes: number, label?: string): RunningPomodoro {
    const status = this.status();
    if (status.running) throw new PomodoroAlreadyRunningError(status);
    if (!(minutes > 0) || !Number.isFinite(minutes)) throw new RangeError("A pomodoro needs a positive number of minutes.");
    const startedAt = this.clock.now();
    this.current = { minutes, startedAt, endsAt: startedAt + minutes * 60_000, ...(label ? { label } : {}) };
    this.tick();
    return this.status() as RunningPomodoro;
  }

  status(): PomodoroStatus {
    if (this.current && this.clock.now() >= this.current.endsAt) this.finish();
    if (!this.current) return { running: false, ...(this.lastFinished ? { lastFinished: this.lastFinished } : {}) };
    return { running: true, ...this.current, remainingMs: this.current.endsAt - this.clock.now() };
  }

  /** Stops a running pomodoro without the end notice; returns what was running, if anything. */
  stop(): RunningPomodoro | null {
    const status = this.status();
    this.cancelTick();
    this.current = null;
    this.display?.clear();
    return status.running ? status : null;
  }

  /** Stops everything (plugin unload). */
  dispose(): void {
    this.stop();
  }

  private tick(): void {
    this.cancelTick();
    const current = this.current;
    if (!current) return;
    const remaining = current.endsAt - this.clock.now();
    if (remaining <= 0) {
      this.finish();
      return;
    }
    if (!this.display) return;
    this.display.show(`🍅 ${formatClock(remaining)}${current.label ? ` ${current.label}` : ""}`);
    this.tickHandle = this.timers.setTimeout(() => this.tick(), Math.min(this.tickMs, remaining));
  }

  private finish(): void {
    const finished = this.current;
    if (!finished) return;
    this.cancelTick();
    this.current = null;
    const done = { minutes: finished.minutes, endedAt: finished.endsAt, ...(finished.label ? { label: finished.label } : {}) };
    this.lastFinished = done;
    this.display?.clear();
    this.display?.notify(`Pomodoro done${finished.label ? `: ${finished.label}` : ""} (${finished.minutes} min). Time for a break.`, done);
  }

  private cancelTick(): void {
    if (this.tickHandle !== undefined) this.timers.clearTimeout(this.tickHandle);
    this.tickHandle = undefined;
  }
}

/** "24:59" (minutes may exceed 59: "90:00"). */
export function formatClock(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "12 min 30 s" */
export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ""}` : `${seconds} s`;
}

/**
 * Where a running pomodoro shows itself. Obsidian implements it with a status bar item and a
 * Notice (src/components/pomodoroStatusBar.ts); without one the timer still runs and reports.
 */
export interface PomodoroDisplay {
  /** Shows or updates the running timer, e.g. "🍅 24:59 Write report". */
  show(text: string): void;
  /** Removes the timer from view. */
  clear(): void;
  /**
   * Tells the user the timer ended, even when they look elsewhere: `text` in English, and what
   * ended, for a display that says it in the interface's language.
   */
  notify(text: string, finished: FinishedPomodoro): void;
}

/** A pomodoro that ran to its end. */
export interface FinishedPomodoro {
  minutes: number;
  label?: string;
}

/** The timers the pomodoro uses (src/ports/timers.ts by default), injectable so tests drive time by hand. */
export interface PomodoroTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

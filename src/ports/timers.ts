/**
 * Timers for code that runs both in Obsidian and in Node (the CLI, tests). In Obsidian they are
 * `window`'s, as the Obsidian guidelines ask (popout windows); in Node there is no `window`, so
 * the host's own are used.
 */
type TimerHost = Pick<Window, "setTimeout" | "clearTimeout">;

function host(): TimerHost {
  return typeof window !== "undefined" ? window : { setTimeout, clearTimeout };
}

/** Calls `callback` after `ms` milliseconds; returns a handle for `clearTimer`. */
export function setTimer(callback: () => void, ms: number): number {
  return host().setTimeout(callback, ms);
}

export function clearTimer(handle: number | undefined): void {
  if (handle !== undefined) host().clearTimeout(handle);
}

/** Resolves after `ms` milliseconds, or rejects with the signal's reason when it is aborted first. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimer(handle);
      reject(abortReason(signal));
    };
    const handle = setTimer(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The abort reason as an Error (a signal may be aborted with anything). */
export function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === "string" ? reason : "The operation was aborted.", "AbortError");
}

/**
 * Time as the code that waits sees it: timers and the current time, handed in so that tests can
 * run a 60 s wait in no time (a fake whose clock moves only when told). `realScheduler` is the
 * host's timers and clock.
 */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number | undefined): void;
  /** Milliseconds since the epoch (or since the fake's start). */
  now(): number;
}

export const realScheduler: Scheduler = {
  setTimeout: setTimer,
  clearTimeout: clearTimer,
  now: () => Date.now(),
};

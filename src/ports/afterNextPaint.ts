/**
 * Work that nothing on screen waits for, started once the next frame is drawn: what a view shows
 * first (the chat's Message box) is painted before the index, the prompts folder or a server's
 * model list take the main thread.
 */
import { clearTimer, setTimer } from "./timers";

/** What the browser gives for frames and tasks (a window's, or a fake in tests). */
export interface FrameHost {
  requestAnimationFrame(callback: () => void): number;
  cancelAnimationFrame(handle: number): void;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number | undefined): void;
}

/**
 * How long to wait for a frame at most: a hidden window (Obsidian started minimized, a
 * background tab) draws none, and the work must still start.
 */
export const LONGEST_FRAME_WAIT_MS = 250;

/**
 * Calls `work` in a task after the next frame has been painted (a callback of the frame itself
 * would run before its paint), or after `LONGEST_FRAME_WAIT_MS` when no frame comes; never once
 * `signal` has aborted. Without a window (the CLI, Node tests) it runs in the next task.
 */
export function afterNextPaint(work: () => void, signal?: AbortSignal, host: FrameHost | null = windowFrames()): void {
  if (signal?.aborted) return;
  if (!host) {
    const handle = setTimer(() => {
      signal?.removeEventListener("abort", cancel);
      work();
    }, 0);
    const cancel = () => clearTimer(handle);
    signal?.addEventListener("abort", cancel, { once: true });
    return;
  }
  let frame: number | undefined;
  let task: number | undefined;
  const cancel = () => {
    if (frame !== undefined) host.cancelAnimationFrame(frame);
    host.clearTimeout(task);
  };
  const run = () => {
    cancel();
    signal?.removeEventListener("abort", cancel);
    work();
  };
  signal?.addEventListener("abort", cancel, { once: true });
  frame = host.requestAnimationFrame(() => {
    frame = undefined;
    host.clearTimeout(task);
    task = host.setTimeout(run, 0);
  });
  task = host.setTimeout(run, LONGEST_FRAME_WAIT_MS);
}

function windowFrames(): FrameHost | null {
  if (typeof window === "undefined" || typeof window.requestAnimationFrame !== "function") return null;
  return {
    requestAnimationFrame: (callback) => window.requestAnimationFrame(callback),
    cancelAnimationFrame: (handle) => window.cancelAnimationFrame(handle),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle),
  };
}

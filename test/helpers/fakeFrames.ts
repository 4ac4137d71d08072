/**
 * Animation frames on a FakeScheduler's clock: a frame every `FRAME_MS`, at whole multiples of
 * it, running the callbacks asked for before it; tasks are the scheduler's timers. Tests of
 * code that waits for frames (afterNextPaint, the stream's pacing) move the clock with
 * `time.advance(ms)` and see exactly which frame or task ran what.
 */
import type { FrameHost } from "../../src/ports/afterNextPaint";
import type { PacingHost } from "../../src/components/chat-components/streamPacing";
import { FakeScheduler } from "./fakeScheduler";

export const FRAME_MS = 16;

export class FakeFrames implements FrameHost, PacingHost {
  readonly time = new FakeScheduler(0);
  /** The clock at each frame that ran a callback. */
  readonly framesRun: number[] = [];

  requestAnimationFrame(callback: () => void): number {
    const now = this.time.now();
    const next = (Math.floor(now / FRAME_MS) + 1) * FRAME_MS;
    return this.time.setTimeout(() => {
      if (this.framesRun.at(-1) !== this.time.now()) this.framesRun.push(this.time.now());
      callback();
    }, next - now);
  }

  cancelAnimationFrame(handle: number): void {
    this.time.clearTimeout(handle);
  }

  setTimeout(callback: () => void, ms: number): number {
    return this.time.setTimeout(callback, ms);
  }

  clearTimeout(handle: number | undefined): void {
    this.time.clearTimeout(handle);
  }

  requestFrame(callback: () => void): void {
    this.requestAnimationFrame(callback);
  }

  setTimer(callback: () => void, ms: number): void {
    this.time.setTimeout(callback, ms);
  }

  now(): number {
    return this.time.now();
  }
}

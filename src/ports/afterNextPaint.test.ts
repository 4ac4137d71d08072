import { FakeFrames, FRAME_MS } from "../../test/helpers/fakeFrames";
import { afterNextPaint, LONGEST_FRAME_WAIT_MS } from "./afterNextPaint";

describe("afterNextPaint", () => {
  it("runs the work in a task after the next frame, not inside the frame (which paints after its callbacks)", () => {
    const frames = new FakeFrames();
    const order: string[] = [];
    frames.time.advance(5);
    afterNextPaint(() => order.push(`work at ${frames.now()}`), undefined, frames);
    // Another callback of the same frame, asked for after the work: the work still comes after it.
    frames.requestAnimationFrame(() => order.push(`frame at ${frames.now()}`));
    frames.time.advance(FRAME_MS - 6);
    expect(order).toEqual([]);
    frames.time.advance(1);
    expect(order).toEqual([`frame at ${FRAME_MS}`, `work at ${FRAME_MS}`]);
    frames.time.advance(LONGEST_FRAME_WAIT_MS);
    expect(order).toHaveLength(2);
  });

  it("runs once after the longest wait when no frame comes (a hidden window draws none)", () => {
    const frames = new FakeFrames();
    const ran: number[] = [];
    const hidden = { ...bound(frames), requestAnimationFrame: () => 1, cancelAnimationFrame: () => undefined };
    afterNextPaint(() => ran.push(frames.now()), undefined, hidden);
    frames.time.advance(LONGEST_FRAME_WAIT_MS - 1);
    expect(ran).toEqual([]);
    frames.time.advance(10_000);
    expect(ran).toEqual([LONGEST_FRAME_WAIT_MS]);
  });

  it("never runs once its signal aborted, before the frame or when already aborted", () => {
    const frames = new FakeFrames();
    const ran: string[] = [];
    const unloaded = new AbortController();
    afterNextPaint(() => ran.push("waiting"), unloaded.signal, frames);
    unloaded.abort();
    afterNextPaint(() => ran.push("late"), unloaded.signal, frames);
    frames.time.advance(LONGEST_FRAME_WAIT_MS * 4);
    expect(ran).toEqual([]);
    expect(frames.time.pending).toBe(0);
  });

  it("without a window (the CLI, Node) runs the work in the next task", async () => {
    let ran = false;
    const done = new Promise<void>((resolve) =>
      afterNextPaint(
        () => {
          ran = true;
          resolve();
        },
        undefined,
        null,
      ),
    );
    expect(ran).toBe(false);
    await done;
    expect(ran).toBe(true);
  });
});

/** The fake's methods as a plain object (to replace some of them). */
function bound(frames: FakeFrames) {
  return {
    requestAnimationFrame: (callback: () => void) => frames.requestAnimationFrame(callback),
    cancelAnimationFrame: (handle: number) => frames.cancelAnimationFrame(handle),
    setTimeout: (callback: () => void, ms: number) => frames.setTimeout(callback, ms),
    clearTimeout: (handle: number | undefined) => frames.clearTimeout(handle),
  };
}

import { FakeScheduler } from "../../../test/helpers/fakeScheduler";
import { LONG_PRESS_MS, LONG_PRESS_SLOP_PX, LongPress, type PressPoint } from "./longPress";

function detector(): { press: LongPress; opened: PressPoint[]; time: FakeScheduler } {
  const time = new FakeScheduler();
  const opened: PressPoint[] = [];
  return { press: new LongPress((at) => opened.push(at), time), opened, time };
}

describe("LongPress", () => {
  it("opens once a finger has rested LONG_PRESS_MS, once, where it rests; the lift after it is not a tap", () => {
    const { press, opened, time } = detector();
    press.start({ x: 40, y: 300 });
    time.advance(LONG_PRESS_MS - 1);
    expect(opened).toEqual([]);
    time.advance(1);
    expect(opened).toEqual([{ x: 40, y: 300 }]);
    time.advance(5 * LONG_PRESS_MS);
    expect(opened).toHaveLength(1);
    expect(press.end()).toBe(true);
  });

  it("a tap, lifted before LONG_PRESS_MS, opens nothing and stays a tap", () => {
    const { press, opened, time } = detector();
    press.start({ x: 40, y: 300 });
    time.advance(LONG_PRESS_MS - 50);
    expect(press.end()).toBe(false);
    time.advance(LONG_PRESS_MS);
    expect(opened).toEqual([]);
    expect(time.pending).toBe(0);
  });

  it("a finger that moves past LONG_PRESS_SLOP_PX is scrolling: nothing opens; one that drifts less still opens", () => {
    const scroll = detector();
    scroll.press.start({ x: 40, y: 300 });
    scroll.press.move({ x: 40, y: 300 - LONG_PRESS_SLOP_PX - 1 });
    scroll.time.advance(2 * LONG_PRESS_MS);
    expect(scroll.opened).toEqual([]);
    expect(scroll.press.end()).toBe(false);

    const drift = detector();
    drift.press.start({ x: 40, y: 300 });
    drift.press.move({ x: 46, y: 306 });
    drift.time.advance(LONG_PRESS_MS);
    expect(drift.opened).toEqual([{ x: 40, y: 300 }]);
  });

  it("the system's own long press while the finger is down opens it at once and only once; a right click without a finger is left to the system", () => {
    const { press, opened, time } = detector();
    press.start({ x: 40, y: 300 });
    time.advance(100);
    expect(press.system({ x: 41, y: 301 })).toBe(true);
    expect(opened).toEqual([{ x: 41, y: 301 }]);
    time.advance(2 * LONG_PRESS_MS);
    expect(opened).toHaveLength(1);
    // The system's long press after ours opened the menu: still ours, nothing opens twice.
    expect(press.system({ x: 41, y: 301 })).toBe(true);
    expect(opened).toHaveLength(1);
    expect(press.end()).toBe(true);

    expect(press.system({ x: 200, y: 200 })).toBe(false);
    expect(opened).toHaveLength(1);
  });

  it("a new press after one that opened starts over", () => {
    const { press, opened, time } = detector();
    press.start({ x: 1, y: 1 });
    time.advance(LONG_PRESS_MS);
    press.end();
    press.start({ x: 2, y: 2 });
    time.advance(LONG_PRESS_MS - 1);
    expect(press.end()).toBe(false);
    expect(opened).toEqual([{ x: 1, y: 1 }]);
  });
});

import { realScheduler, type Scheduler } from "../../ports/timers";

/**
 * How long a finger rests on an answer, without moving, before its menu opens. A little under
 * the systems' own long press (about 500 ms on iOS and Android), so the menu comes before the
 * text selection would.
 */
export const LONG_PRESS_MS = 450;
/** How far (px) a resting finger may drift and still be a long press: past it, it is a scroll. */
export const LONG_PRESS_SLOP_PX = 10;

/** Where the press is, in the window's coordinates (where a menu opens). */
export interface PressPoint {
  x: number;
  y: number;
}

/**
 * Tells a long press from a tap or a scroll. The touch handlers call `start` when a finger goes
 * down, `move` as it moves and `end` when it lifts or the touch is cancelled; `system` is the
 * platform's own long press (the `contextmenu` event Android fires while the finger is down).
 * `onLongPress` runs once per press: after LONG_PRESS_MS within LONG_PRESS_SLOP_PX of where it
 * began, or at the system's long press, whichever comes first.
 */
export class LongPress {
  private timer: number | undefined;
  private origin: PressPoint | null = null;
  private fired = false;

  constructor(
    private readonly onLongPress: (at: PressPoint) => void,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  start(at: PressPoint): void {
    this.clearTimer();
    this.fired = false;
    this.origin = at;
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = undefined;
      this.fire(at);
    }, LONG_PRESS_MS);
  }

  move(at: PressPoint): void {
    if (!this.origin) return;
    if (Math.hypot(at.x - this.origin.x, at.y - this.origin.y) > LONG_PRESS_SLOP_PX) this.cancel();
  }

  /** The finger lifted (or the touch was cancelled). True when this press opened the menu: what follows it is not a tap. */
  end(): boolean {
    this.clearTimer();
    this.origin = null;
    return this.fired;
  }

  /**
   * The platform's own long press (the `contextmenu` event). True when a finger is down on this
   * press, which then opens its menu if it has not yet (the system's menu must not open too);
   * false for a mouse's right click, which is left to the system.
   */
  system(at: PressPoint): boolean {
    if (!this.origin) return false;
    this.clearTimer();
    this.fire(at);
    return true;
  }

  /** A scroll, or the view going away: no menu from this press. */
  cancel(): void {
    this.clearTimer();
    this.origin = null;
  }

  private fire(at: PressPoint): void {
    if (this.fired) return;
    this.fired = true;
    this.onLongPress(at);
  }

  private clearTimer(): void {
    this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

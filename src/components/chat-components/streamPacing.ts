/**
 * When a streaming answer is drawn: the chat controller's `scheduleFlush` in the view. Once a
 * frame, as text arrives; but while the user types (in the Message box, in a note), the keys come first. A
 * frame that draws the answer (React, the growing block's Markdown, layout and paint of the
 * answer) is a frame a key waits for, so while typing the answer is drawn at most every
 * `TYPING_DRAW_INTERVAL_MS`, and never in the frame that paints a key just pressed. Once the keys
 * stop, it is drawn every frame again; no text waits longer than the interval and two frames.
 */

/** A key or an edit this recently means the user is typing. */
export const TYPING_WINDOW_MS = 500;
/** While the user types, the answer is drawn this often at most (about three times a second). */
export const TYPING_DRAW_INTERVAL_MS = 300;
/** A key this recent is painted by the coming frame, which the answer then leaves to it. */
export const KEY_FRAME_MS = 16;
/** How many frames in a row the answer gives way to keys before it is drawn regardless. */
const MOST_FRAMES_GIVEN_WAY = 2;

/** The frames, timers and clock the pacing runs on (a window's, or a fake in tests). */
export interface PacingHost {
  requestFrame(callback: () => void): void;
  setTimer(callback: () => void, ms: number): void;
  now(): number;
}

export class StreamPacing {
  private lastInputAt = Number.NEGATIVE_INFINITY;
  private lastDrawAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly host: PacingHost = windowPacingHost()) {}

  /** The user typed (a key, or an edit such as a paste or an input method's text). */
  readonly noteInput = (): void => {
    this.lastInputAt = this.host.now();
  };

  /**
   * Counts every key and edit in `page` (the view's document: the Message box, the note editor,
   * any field) as typing, seen while the event goes down so no handler can hide it; returns the
   * way to stop.
   */
  followInput(page: EventTarget): () => void {
    const events = ["keydown", "input"];
    for (const type of events) page.addEventListener(type, this.noteInput, { capture: true });
    return () => {
      for (const type of events) page.removeEventListener(type, this.noteInput, { capture: true });
    };
  }

  /** Runs `flush` (the controller's drawing of what streamed) in a coming frame, as the typing allows. */
  readonly schedule = (flush: () => void): void => {
    const wait = this.typing() ? this.lastDrawAt + TYPING_DRAW_INTERVAL_MS - this.host.now() : 0;
    if (wait > 0) this.host.setTimer(() => this.inFrame(flush, 0), wait);
    else this.inFrame(flush, 0);
  };

  private inFrame(flush: () => void, givenWay: number): void {
    this.host.requestFrame(() => {
      if (givenWay < MOST_FRAMES_GIVEN_WAY && this.host.now() - this.lastInputAt < KEY_FRAME_MS) {
        this.inFrame(flush, givenWay + 1);
        return;
      }
      this.lastDrawAt = this.host.now();
      flush();
    });
  }

  private typing(): boolean {
    return this.host.now() - this.lastInputAt < TYPING_WINDOW_MS;
  }
}

function windowPacingHost(): PacingHost {
  return {
    requestFrame: (callback) => void window.requestAnimationFrame(callback),
    setTimer: (callback, ms) => void window.setTimeout(callback, ms),
    now: () => performance.now(),
  };
}

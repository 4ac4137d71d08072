import { FakeFrames, FRAME_MS } from "../../../test/helpers/fakeFrames";
import { KEY_FRAME_MS, StreamPacing, TYPING_DRAW_INTERVAL_MS, TYPING_WINDOW_MS } from "./streamPacing";

/**
 * A stream as the chat controller drives the pacing: text arrives every `everyMs`, and a flush is
 * asked for whenever none is waiting (the controller's flushPending). Returns the clock at each
 * draw, and the text each draw showed.
 */
function streamText(frames: FakeFrames, pacing: StreamPacing, everyMs: number) {
  const draws: Array<{ at: number; text: string }> = [];
  let arrived = "";
  let waiting = false;
  let piece = 0;
  const arrive = () => {
    arrived += `слово${piece++} `;
    if (waiting) return;
    waiting = true;
    pacing.schedule(() => {
      waiting = false;
      draws.push({ at: frames.now(), text: arrived });
    });
  };
  const timer = () => {
    arrive();
    frames.setTimer(timer, everyMs);
  };
  frames.setTimer(timer, 0);
  return { draws, arrived: () => arrived };
}

describe("drawing a streaming answer", () => {
  it("draws once a frame while nobody types", () => {
    const frames = new FakeFrames();
    const pacing = new StreamPacing(frames);
    const { draws } = streamText(frames, pacing, 4);
    frames.time.advance(FRAME_MS * 30);
    expect(draws.length).toBeGreaterThanOrEqual(29);
    expect(new Set(draws.map((draw) => draw.at % FRAME_MS))).toEqual(new Set([0]));
  });

  it("while the user types, draws at most every TYPING_DRAW_INTERVAL_MS and never in the frame right after a key", () => {
    const frames = new FakeFrames();
    const pacing = new StreamPacing(frames);
    const { draws, arrived } = streamText(frames, pacing, 4);
    const keys: number[] = [];
    // A key every 35 ms for two seconds, as someone typing fast.
    const press = () => {
      keys.push(frames.now());
      pacing.noteInput();
      if (frames.now() < 2_000) frames.setTimer(press, 35);
    };
    frames.setTimer(press, 7);
    frames.time.advance(2_000);
    const whileTyping = draws.filter((draw) => draw.at > 100 && draw.at < 2_000);
    expect(whileTyping.length).toBeGreaterThan(2_000 / (TYPING_DRAW_INTERVAL_MS * 2));
    for (const [index, draw] of whileTyping.entries()) {
      if (index > 0) expect(draw.at - whileTyping[index - 1]!.at).toBeGreaterThanOrEqual(TYPING_DRAW_INTERVAL_MS);
      // No key in the frame before this draw: that frame paints the key alone.
      expect(keys.filter((key) => key <= draw.at && draw.at - key < KEY_FRAME_MS)).toEqual([]);
    }
    // Nothing is lost: the last draw once the keys stop shows every word that arrived before it.
    frames.time.advance(TYPING_WINDOW_MS + TYPING_DRAW_INTERVAL_MS);
    const last = draws.at(-1)!;
    expect(arrived().startsWith(last.text)).toBe(true);
    expect(arrived().length - last.text.length).toBeLessThan(40);
  });

  it("draws every frame again once the keys have stopped for TYPING_WINDOW_MS", () => {
    const frames = new FakeFrames();
    const pacing = new StreamPacing(frames);
    const { draws } = streamText(frames, pacing, 4);
    frames.time.advance(100);
    pacing.noteInput();
    frames.time.advance(TYPING_WINDOW_MS + TYPING_DRAW_INTERVAL_MS);
    const before = draws.length;
    frames.time.advance(FRAME_MS * 20);
    expect(draws.length - before).toBeGreaterThanOrEqual(19);
  });

  it("counts a key or an edit anywhere in the page as typing (the Message box, a note), until told to stop", () => {
    const frames = new FakeFrames();
    const pacing = new StreamPacing(frames);
    const page = new EventTarget();
    const stop = pacing.followInput(page);
    const draws: number[] = [];
    const drawSoon = () => pacing.schedule(() => draws.push(frames.now()));
    drawSoon();
    frames.time.advance(FRAME_MS);
    expect(draws).toEqual([FRAME_MS]);
    // A key, then text to draw: it waits for the interval while the user types.
    frames.time.advance(4);
    page.dispatchEvent(new Event("keydown"));
    drawSoon();
    frames.time.advance(TYPING_DRAW_INTERVAL_MS - FRAME_MS);
    expect(draws).toHaveLength(1);
    frames.time.advance(FRAME_MS);
    expect(draws).toHaveLength(2);
    expect(draws[1]! - draws[0]!).toBeGreaterThanOrEqual(TYPING_DRAW_INTERVAL_MS);
    // The keys stop; then an edit with no key of its own (a paste, an input method's text) counts the same.
    frames.time.advance(TYPING_WINDOW_MS);
    drawSoon();
    frames.time.advance(FRAME_MS);
    expect(draws).toHaveLength(3);
    frames.time.advance(4);
    page.dispatchEvent(new Event("input"));
    drawSoon();
    frames.time.advance(FRAME_MS * 2);
    expect(draws).toHaveLength(3);
    frames.time.advance(TYPING_DRAW_INTERVAL_MS);
    expect(draws).toHaveLength(4);
    expect(draws[3]! - draws[2]!).toBeGreaterThanOrEqual(TYPING_DRAW_INTERVAL_MS);
    // Once stopped, keys are the page's own business: the next text is drawn in the next frame.
    stop();
    frames.time.advance(TYPING_WINDOW_MS);
    page.dispatchEvent(new Event("keydown"));
    drawSoon();
    frames.time.advance(FRAME_MS);
    expect(draws).toHaveLength(5);
  });

  it("gives way to keys for two frames at most: a key every frame does not stop the answer", () => {
    const frames = new FakeFrames();
    const pacing = new StreamPacing(frames);
    const { draws } = streamText(frames, pacing, 4);
    const press = () => {
      pacing.noteInput();
      frames.setTimer(press, FRAME_MS);
    };
    frames.setTimer(press, 1);
    frames.time.advance(1_000);
    expect(draws.length).toBeGreaterThanOrEqual(Math.floor(1_000 / (TYPING_DRAW_INTERVAL_MS + 3 * FRAME_MS)));
  });
});

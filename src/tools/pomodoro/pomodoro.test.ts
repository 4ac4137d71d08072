import { callTool, makeToolDependencies, TEST_NOW } from "../../../test/helpers/toolHarness";
import type { Clock } from "../../ports/Clock";
import { pomodoroTool, type PomodoroOutput } from "./pomodoro";
import type { PomodoroDisplay, PomodoroTimers } from "./PomodoroDisplay";
import { PomodoroTimer } from "./PomodoroTimer";

/** A clock and timers moved by hand: `advance` runs what falls due, in order. */
class HandTime implements Clock, PomodoroTimers {
  private current = TEST_NOW;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();
  now(): number {
    return this.current;
  }
  timeZone(): string {
    return "Europe/Berlin";
  }
  setTimeout(callback: () => void, ms: number): number {
    const id = this.nextId++;
    this.pending.set(id, { at: this.current + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  get pendingCount(): number {
    return this.pending.size;
  }
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.current = due[1].at;
      due[1].callback();
    }
    this.current = target;
  }
}

class RecordingDisplay implements PomodoroDisplay {
  shown: string[] = [];
  notices: string[] = [];
  cleared = 0;
  show(text: string): void {
    this.shown.push(text);
  }
  clear(): void {
    this.cleared++;
  }
  notify(text: string): void {
    this.notices.push(text);
  }
}

function setup() {
  const time = new HandTime();
  const display = new RecordingDisplay();
  const timer = new PomodoroTimer({ clock: time, display, timers: time });
  const dependencies = makeToolDependencies({ clock: time, pomodoroTimer: timer });
  return { time, display, timer, dependencies };
}

describe("pomodoro", () => {
  it("starts a 25-minute timer by default and counts down in the display", async () => {
    const { time, display, dependencies } = setup();
    const result = await callTool(pomodoroTool, dependencies, { action: "start", label: "Write report" });
    expect(result.text).toBe('Started a 25-minute pomodoro "Write report"; 25 min left (ends at 2026-12-02 10:25:00).');
    expect(display.shown.at(-1)).toBe("🍅 25:00 Write report");
    time.advance(61_000);
    expect(display.shown.at(-1)).toBe("🍅 23:59 Write report");
    const status = await callTool(pomodoroTool, dependencies, { action: "status" });
    expect(status.text).toContain("23 min 59 s left");
  });

  it("clears the display and notifies when the time is up", async () => {
    const { time, display, dependencies } = setup();
    await callTool(pomodoroTool, dependencies, { action: "start", minutes: 1 });
    time.advance(60_000);
    expect(display.notices).toEqual(["Pomodoro done (1 min). Time for a break."]);
    expect(display.cleared).toBeGreaterThan(0);
    expect(time.pendingCount).toBe(0);
    const status = await callTool(pomodoroTool, dependencies, { action: "status" });
    expect(status.text).toBe("No pomodoro is running. The last one (1 min) ended at 2026-12-02 10:01:00.");
  });

  it("stops a running timer without a notice, and says when none runs", async () => {
    const { time, display, dependencies } = setup();
    await callTool(pomodoroTool, dependencies, { action: "start", minutes: 10, label: "Read" });
    time.advance(120_000);
    const stopped = await callTool(pomodoroTool, dependencies, { action: "stop" });
    expect(stopped.text).toBe('Stopped the pomodoro "Read" with 8 min left.');
    expect((stopped.output as PomodoroOutput).stopped).toBe(true);
    time.advance(600_000);
    expect(display.notices).toEqual([]);
    expect(time.pendingCount).toBe(0);
    expect((await callTool(pomodoroTool, dependencies, { action: "stop" })).text).toBe("No pomodoro was running.");
  });

  it("refuses a second start while one runs, telling the model how to proceed", async () => {
    const { dependencies } = setup();
    await callTool(pomodoroTool, dependencies, { action: "start", minutes: 5 });
    const second = await callTool(pomodoroTool, dependencies, { action: "start" });
    expect(second.status).toBe("error");
    expect(second.text).toContain('already running with 5 min left. Stop it first (action "stop")');
  });

  it("works without a display (the CLI), reading the time from the clock", async () => {
    const time = new HandTime();
    const dependencies = makeToolDependencies({ clock: time });
    const tool = pomodoroTool.create(dependencies);
    const run = (args: unknown) => callTool({ ...pomodoroTool, create: () => tool }, dependencies, args);
    await run({ action: "start", minutes: 2 });
    expect(time.pendingCount).toBe(0);
    time.advance(30_000);
    expect((await run({ action: "status" })).text).toContain("1 min 30 s left");
  });

  it("names the bad field on bad arguments", async () => {
    const { dependencies } = setup();
    const badAction = await callTool(pomodoroTool, dependencies, { action: "pause" });
    expect(badAction.status).toBe("invalid-arguments");
    expect(badAction.text).toContain("`action`");
    const tooLong = await callTool(pomodoroTool, dependencies, { action: "start", minutes: 600 });
    expect(tooLong.text).toContain("`minutes`");
  });
});

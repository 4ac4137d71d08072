/**
 * A Scheduler whose clock moves only when told: `advance(ms)` runs every timer that falls due in
 * that span, in the order they are due (ties in the order they were set), each with the clock at
 * its own due time, including timers that callbacks set along the way.
 *
 *   const time = new FakeScheduler();
 *   new Embedder({ ..., scheduler: time });
 *   time.advance(60_000);           // the resume timer fires now
 */
import type { Scheduler } from "../../src/ports/timers";

interface PendingTimer {
  at: number;
  order: number;
  callback: () => void;
}

export class FakeScheduler implements Scheduler {
  private time: number;
  private nextHandle = 1;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(start = 1_700_000_000_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): number {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + Math.max(0, ms), order: handle, callback });
    return handle;
  }

  clearTimeout(handle: number | undefined): void {
    if (handle !== undefined) this.timers.delete(handle);
  }

  /** Timers set and not yet run nor cleared. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves the clock `ms` forward, running what falls due on the way. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.nextDue(end);
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }

  private nextDue(end: number): [number, PendingTimer] | undefined {
    let first: [number, PendingTimer] | undefined;
    for (const entry of this.timers) {
      const timer = entry[1];
      if (timer.at > end) continue;
      if (!first || timer.at < first[1].at || (timer.at === first[1].at && timer.order < first[1].order)) first = entry;
    }
    return first;
  }
}

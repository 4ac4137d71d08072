import { abortReason, delay } from "../ports/timers";

/**
 * Cuts long synchronous work (indexing, loading, compacting) into slices so the UI thread is
 * never held for long: the work calls `checkpoint()` often, and once the current slice has run
 * for `budgetMs` the slicer hands the thread back (a zero-delay timer) before going on.
 * It also records the longest slice it saw, which the benchmark reports as the worst stall.
 */
export class TimeSlicer {
  private sliceStart: number;
  private longest = 0;

  constructor(
    private readonly options: {
      budgetMs?: number;
      signal?: AbortSignal;
      /** How to hand the thread back; a zero-delay timer unless told otherwise. */
      yieldNow?: () => Promise<void>;
      now?: () => number;
    } = {},
  ) {
    this.sliceStart = this.now();
  }

  /** The longest stretch of work between two hand-backs so far, in ms. */
  get longestSliceMs(): number {
    return Math.max(this.longest, this.now() - this.sliceStart);
  }

  /** True once the current slice has used its budget. */
  get due(): boolean {
    return this.now() - this.sliceStart >= (this.options.budgetMs ?? 12);
  }

  /** Hands the thread back if the slice is used up; throws the abort reason if the signal fired. */
  async checkpoint(): Promise<void> {
    if (this.options.signal?.aborted) throw abortReason(this.options.signal);
    if (this.due) await this.pause();
  }

  /** Hands the thread back now. */
  async pause(): Promise<void> {
    this.longest = Math.max(this.longest, this.now() - this.sliceStart);
    await (this.options.yieldNow ?? (() => delay(0)))();
    if (this.options.signal?.aborted) throw abortReason(this.options.signal);
    this.sliceStart = this.now();
  }

  /** Awaits `work` (a file read, a write): the thread is free meanwhile, so a new slice starts after. */
  async wait<T>(work: Promise<T>): Promise<T> {
    this.longest = Math.max(this.longest, this.now() - this.sliceStart);
    try {
      return await work;
    } finally {
      this.sliceStart = this.now();
    }
  }

  private now(): number {
    return (this.options.now ?? (() => performance.now()))();
  }
}

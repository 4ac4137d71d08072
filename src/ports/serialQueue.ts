/**
 * Work that must not interleave (an index's updates, a history file's read-change-write, the
 * writes to one note) runs one piece at a time, in the order asked. A failed piece does not block
 * what comes after it; its caller gets the failure.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` after everything queued before it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Settles once everything queued so far has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}

/** One SerialQueue per key (e.g. per note path), dropped once its last piece has settled. */
export class KeyedSerialQueue {
  private readonly queues = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.queues.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    }
  }
}

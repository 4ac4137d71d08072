/**
 * Keeps the `limit` best-scoring ids seen, in a min-heap: offering n candidates costs
 * n·log(limit) instead of sorting them all. Equal scores keep the id offered first.
 */
export class TopHits {
  private readonly heap: { id: number; score: number; order: number }[] = [];
  private offered = 0;

  constructor(private readonly limit: number) {}

  offer(id: number, score: number): void {
    const entry = { id, score, order: this.offered++ };
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push(entry);
      this.siftUp(heap.length - 1);
    } else if (heap.length > 0 && worse(heap[0] as typeof entry, entry)) {
      heap[0] = entry;
      this.siftDown(0);
    }
  }

  /**
   * Whether a candidate with this score would be kept if offered now (a later offer of an equal
   * score ranks below the kept one): a caller may skip a costly check of a candidate that would not.
   */
  wouldTake(score: number): boolean {
    const lowest = this.heap[0];
    return this.heap.length < this.limit || (lowest !== undefined && score > lowest.score);
  }

  /** The kept hits, best first. */
  sorted(): { id: number; score: number }[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.order - b.order).map(({ id, score }) => ({ id, score }));
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!worse(heap[index] as Entry, heap[parent] as Entry)) break;
      [heap[index], heap[parent]] = [heap[parent] as Entry, heap[index] as Entry];
      index = parent;
    }
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && worse(heap[left] as Entry, heap[smallest] as Entry)) smallest = left;
      if (right < heap.length && worse(heap[right] as Entry, heap[smallest] as Entry)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest] as Entry, heap[index] as Entry];
      index = smallest;
    }
  }
}

interface Entry {
  id: number;
  score: number;
  order: number;
}

/** True when `a` ranks below `b`: a lower score, or the same score offered later. */
function worse(a: Entry, b: Entry): boolean {
  return a.score < b.score || (a.score === b.score && a.order > b.order);
}

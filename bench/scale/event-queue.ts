/**
 * A priority queue of events on virtual time: a binary min-heap keyed by (timeMs, insertion
 * order), so events at the same instant come out in the order they were scheduled.
 */
export class EventQueue<T> {
  readonly #times: number[] = [];
  readonly #seqs: number[] = [];
  readonly #items: T[] = [];
  #nextSeq = 0;

  get size(): number {
    return this.#items.length;
  }

  push(timeMs: number, item: T): void {
    if (!Number.isFinite(timeMs)) throw new RangeError(`event time must be finite, got ${timeMs}`);
    this.#times.push(timeMs);
    this.#seqs.push(this.#nextSeq++);
    this.#items.push(item);
    this.#up(this.#items.length - 1);
  }

  /** The earliest event, or undefined when none is left. */
  pop(): { timeMs: number; item: T } | undefined {
    const last = this.#items.length - 1;
    if (last < 0) return undefined;
    const timeMs = this.#times[0] as number;
    const item = this.#items[0] as T;
    this.#move(last, 0);
    this.#times.pop();
    this.#seqs.pop();
    this.#items.pop();
    if (last > 0) this.#down(0);
    return { timeMs, item };
  }

  #less(a: number, b: number): boolean {
    const ta = this.#times[a] as number;
    const tb = this.#times[b] as number;
    return ta < tb || (ta === tb && (this.#seqs[a] as number) < (this.#seqs[b] as number));
  }

  #move(from: number, to: number): void {
    this.#times[to] = this.#times[from] as number;
    this.#seqs[to] = this.#seqs[from] as number;
    this.#items[to] = this.#items[from] as T;
  }

  #swap(a: number, b: number): void {
    const time = this.#times[a] as number;
    const seq = this.#seqs[a] as number;
    const item = this.#items[a] as T;
    this.#move(b, a);
    this.#times[b] = time;
    this.#seqs[b] = seq;
    this.#items[b] = item;
  }

  #up(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.#less(child, parent)) return;
      this.#swap(child, parent);
      child = parent;
    }
  }

  #down(index: number): void {
    const length = this.#items.length;
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < length && this.#less(left, smallest)) smallest = left;
      if (right < length && this.#less(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.#swap(parent, smallest);
      parent = smallest;
    }
  }
}

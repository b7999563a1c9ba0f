/** A binary min-heap ordered by `compare` (negative = a before b). */
export class BinaryHeap<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    this.#items.push(item);
    this.#up(this.#items.length - 1);
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.#down(0);
    }
    return top;
  }

  /** Every item, in no particular order. */
  values(): IterableIterator<T> {
    return this.#items.values();
  }

  /** True when an item matches `predicate`; O(n). */
  some(predicate: (item: T) => boolean): boolean {
    return this.#items.some(predicate);
  }

  /** Removes the first item matching `predicate`; O(n). */
  remove(predicate: (item: T) => boolean): T | undefined {
    const items = this.#items;
    const index = items.findIndex(predicate);
    if (index < 0) return undefined;
    const removed = items[index];
    const last = items.pop();
    if (index < items.length && last !== undefined) {
      items[index] = last;
      this.#down(index);
      this.#up(index);
    }
    return removed;
  }

  #up(start: number): void {
    const items = this.#items;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.#compare(items[index] as T, items[parent] as T) >= 0) break;
      [items[index], items[parent]] = [items[parent] as T, items[index] as T];
      index = parent;
    }
  }

  #down(start: number): void {
    const items = this.#items;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && this.#compare(items[left] as T, items[smallest] as T) < 0) smallest = left;
      if (right < items.length && this.#compare(items[right] as T, items[smallest] as T) < 0)
        smallest = right;
      if (smallest === index) return;
      [items[index], items[smallest]] = [items[smallest] as T, items[index] as T];
      index = smallest;
    }
  }
}

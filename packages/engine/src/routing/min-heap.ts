/**
 * An indexed binary min-heap over items with string ids. `update(id)` restores the heap after
 * the item's key changed; `remove(id)` takes any item out in O(log n).
 */
export class IndexedMinHeap<T extends { readonly id: string }> {
  private readonly items: T[] = [];
  private readonly positions = new Map<string, number>();

  /** @param less strict ordering: true when `a` must come before `b`. */
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Items in heap order (not sorted); for inspection only. */
  values(): readonly T[] {
    return this.items;
  }

  insert(item: T): void {
    if (this.positions.has(item.id)) {
      this.update(item.id);
      return;
    }
    this.items.push(item);
    this.positions.set(item.id, this.items.length - 1);
    this.siftUp(this.items.length - 1);
  }

  remove(id: string): boolean {
    const index = this.positions.get(id);
    if (index === undefined) return false;
    const last = this.items.length - 1;
    this.swap(index, last);
    this.items.pop();
    this.positions.delete(id);
    if (index < this.items.length) {
      this.siftUp(index);
      this.siftDown(index);
    }
    return true;
  }

  update(id: string): void {
    const index = this.positions.get(id);
    if (index === undefined) return;
    this.siftUp(index);
    this.siftDown(this.positions.get(id) ?? index);
  }

  private siftUp(start: number): void {
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.less(this.at(index), this.at(parent))) break;
      this.swap(index, parent);
      index = parent;
    }
  }

  private siftDown(start: number): void {
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < this.items.length && this.less(this.at(left), this.at(smallest))) smallest = left;
      if (right < this.items.length && this.less(this.at(right), this.at(smallest))) smallest = right;
      if (smallest === index) return;
      this.swap(index, smallest);
      index = smallest;
    }
  }

  private at(index: number): T {
    return this.items[index] as T;
  }

  private swap(a: number, b: number): void {
    if (a === b) return;
    const itemA = this.at(a);
    const itemB = this.at(b);
    this.items[a] = itemB;
    this.items[b] = itemA;
    this.positions.set(itemB.id, a);
    this.positions.set(itemA.id, b);
  }
}

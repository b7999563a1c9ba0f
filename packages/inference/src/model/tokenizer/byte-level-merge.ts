import { ID_LIMIT } from "./byte-level-tables";

/**
 * BPE merging of byte-token ids: the lowest-ranked adjacent pair first, the leftmost of ties.
 * `merges` maps a pair (`left * ID_LIMIT + right`) to its rank and merged id (`rank * ID_LIMIT + id`).
 */
export function createMerger(merges: ReadonlyMap<number, number>) {
  /** The pair's packed merge (rank and merged id), or undefined when the pair does not merge. */
  const mergeOf = (left: number, right: number) => merges.get(left * ID_LIMIT + right);
  return {
    /** For short pieces: scan every pair for the best, merge it, again (no allocation past the array). */
    byScanning(symbols: number[]): number[] {
      for (;;) {
        let best = Number.POSITIVE_INFINITY;
        let at = -1;
        for (let i = 0; i + 1 < symbols.length; i += 1) {
          const merge = mergeOf(symbols[i] as number, symbols[i + 1] as number);
          if (merge !== undefined && merge < best) {
            best = merge;
            at = i;
          }
        }
        if (at < 0) return symbols;
        symbols[at] = best % ID_LIMIT;
        symbols.splice(at + 1, 1);
      }
    },
    /**
     * For long pieces (a run of spaces or symbols, a blob of letters): a linked list of symbols and
     * a heap of candidate pairs keyed by rank then position; an entry whose pair has changed since
     * it was pushed is skipped when it comes up.
     */
    byHeap(symbols: number[]): number[] {
      const n = symbols.length;
      const next = new Int32Array(n);
      const prev = new Int32Array(n);
      const alive = new Uint8Array(n).fill(1);
      for (let i = 0; i < n; i += 1) {
        next[i] = i + 1 < n ? i + 1 : -1;
        prev[i] = i - 1;
      }
      const heap = new MinHeap();
      /** The packed merge of the pair starting at `i`, if any. */
      const mergeAt = (i: number) => {
        const j = next[i] ?? -1;
        return j < 0 ? undefined : mergeOf(symbols[i] as number, symbols[j] as number);
      };
      const offer = (i: number) => {
        const merge = mergeAt(i);
        if (merge !== undefined) heap.push(Math.floor(merge / ID_LIMIT) * n + i);
      };
      for (let i = 0; i + 1 < n; i += 1) offer(i);
      while (heap.size > 0) {
        const key = heap.pop();
        const i = key % n;
        const rank = (key - i) / n;
        const merge = alive[i] === 0 ? undefined : mergeAt(i);
        if (merge === undefined || Math.floor(merge / ID_LIMIT) !== rank) continue;
        const j = next[i] ?? -1;
        symbols[i] = merge % ID_LIMIT;
        alive[j] = 0;
        const after = next[j] ?? -1;
        next[i] = after;
        if (after >= 0) prev[after] = i;
        offer(i);
        const before = prev[i] ?? -1;
        if (before >= 0) offer(before);
      }
      const out: number[] = [];
      for (let i = 0; i >= 0; i = next[i] ?? -1) out.push(symbols[i] as number);
      return out;
    },
  };
}

/** A binary min-heap of numbers. */
class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const items = this.items;
    let i = items.length;
    items.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items.pop() as number;
    if (items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && (items[right] as number) < (items[left] as number) ? right : left;
      if ((items[child] as number) >= last) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

import { describe, expect, it } from "vitest";
import { IndexedMinHeap } from "./min-heap";

describe("IndexedMinHeap", () => {
  it("pops in key order through inserts, updates and removals", () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `i${i}`, key: (i * 37) % 50 }));
    const heap = new IndexedMinHeap<{ id: string; key: number }>((a, b) => a.key < b.key);
    for (const item of items) heap.insert(item);
    items[10]!.key = -5;
    heap.update("i10");
    heap.remove("i3");
    const popped: number[] = [];
    while (heap.size > 0) {
      const top = heap.peek()!;
      popped.push(top.key);
      heap.remove(top.id);
    }
    expect(popped).toHaveLength(49);
    expect(popped).toEqual([...popped].sort((a, b) => a - b));
    expect(popped[0]).toBe(-5);
    expect(heap.has("i10")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { BlockPrefixCache } from "./block-prefix-cache";

const range = (start: number, length: number) => Array.from({ length }, (_, i) => start + i);

describe("BlockPrefixCache", () => {
  it("counts leading full blocks, never the whole prompt", () => {
    const cache = new BlockPrefixCache({ blockSize: 16 });
    const prompt = range(0, 40);
    expect(cache.lookup(prompt)).toBe(0);
    cache.insert(prompt);
    expect(cache.lookup(prompt)).toBe(32);
    expect(cache.lookup(range(0, 32))).toBe(16);
    expect(cache.lookup([...range(0, 33), 999])).toBe(32);
  });

  it("chains hashes: the same block after a different prefix is a miss", () => {
    const cache = new BlockPrefixCache({ blockSize: 4 });
    cache.insert([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(cache.lookup([9, 9, 9, 9, 5, 6, 7, 8, 0])).toBe(0);
    expect(cache.lookup([1, 2, 3, 4, 9, 9, 9, 9, 0])).toBe(4);
  });

  it("evicts least recently used blocks at capacity", () => {
    const cache = new BlockPrefixCache({ blockSize: 4, capacityBlocks: 4 });
    const a = range(100, 9);
    const b = range(200, 9);
    const c = range(300, 9);
    cache.insert(a);
    cache.insert(b);
    cache.lookup(a);
    cache.insert(c);
    expect(cache.size).toBe(4);
    expect(cache.evictedBlocks).toBe(2);
    expect(cache.lookup(a)).toBe(8);
    expect(cache.lookup(b)).toBe(0);
    expect(cache.lookup(c)).toBe(8);
  });
});

describe("BlockPrefixCache.lookupAndInsert", () => {
  it("answers like lookup and stores the prompt", () => {
    const cache = new BlockPrefixCache({ blockSize: 4 });
    expect(cache.lookupAndInsert(range(0, 10))).toBe(0);
    expect(cache.lookupAndInsert(range(0, 10))).toBe(8);
    expect(cache.lookupAndInsert(range(0, 9))).toBe(8);
    expect(cache.size).toBe(2);
  });
});

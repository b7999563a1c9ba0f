/** Blocks the simulated prefix cache holds by default. */
export const DEFAULT_CACHE_BLOCKS = 65_536;

/** Options of the simulated prefix cache. */
export interface BlockPrefixCacheOptions {
  /** Tokens per cache block. Default 16 (vLLM's default block size). */
  blockSize?: number;
  /** Blocks the cache holds before evicting the least recently used. Default 65_536. */
  capacityBlocks?: number;
}

/**
 * A block-level prefix cache like vLLM's automatic prefix caching: the prompt is cut into full
 * blocks, each block is identified by a hash chained over every token before it, and a prompt's
 * cached length is the run of leading blocks already present. Least recently used blocks are
 * evicted when the capacity is reached.
 */
export class BlockPrefixCache {
  readonly blockSize: number;
  readonly capacityBlocks: number;
  /** Insertion order of a Map is the LRU order: touching a block deletes and re-inserts it. */
  private readonly blocks = new Map<number, true>();
  private evictions = 0;

  constructor(options: BlockPrefixCacheOptions = {}) {
    this.blockSize = options.blockSize ?? 16;
    this.capacityBlocks = options.capacityBlocks ?? DEFAULT_CACHE_BLOCKS;
  }

  get size(): number {
    return this.blocks.size;
  }

  get evictedBlocks(): number {
    return this.evictions;
  }

  /** Chained hashes of the full blocks of `ids`. */
  blockHashes(ids: readonly number[], maxBlocks = Number.POSITIVE_INFINITY): number[] {
    const count = Math.min(Math.floor(ids.length / this.blockSize), maxBlocks);
    const hashes: number[] = [];
    let a = 0x811c9dc5;
    let b = 0x9e3779b9;
    for (let block = 0; block < count; block += 1) {
      const end = (block + 1) * this.blockSize;
      for (let i = block * this.blockSize; i < end; i += 1) {
        const token = ids[i] as number;
        a = Math.imul(a ^ token, 0x01000193);
        b = Math.imul(b ^ (token + 0x7f4a7c15), 0x5bd1e995);
        b ^= b >>> 15;
      }
      // 53 bits of the two lanes: a safe-integer Map key.
      hashes.push((a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff));
    }
    return hashes;
  }

  /**
   * Cached prompt tokens: the leading blocks present in the cache. As in vLLM, at least the last
   * prompt token is always computed, so only blocks inside the first `length - 1` tokens count.
   * Hit blocks become most recently used.
   */
  lookup(promptIds: readonly number[]): number {
    const usable = Math.floor(Math.max(0, promptIds.length - 1) / this.blockSize);
    let hits = 0;
    for (const hash of this.blockHashes(promptIds, usable)) {
      if (!this.blocks.has(hash)) break;
      this.touch(hash);
      hits += 1;
    }
    return hits * this.blockSize;
  }

  /** `lookup` then `insert` of the same prompt with one pass of hashing (the request's prefill). */
  lookupAndInsert(promptIds: readonly number[]): number {
    const hashes = this.blockHashes(promptIds);
    const usable = Math.floor(Math.max(0, promptIds.length - 1) / this.blockSize);
    let hits = 0;
    while (hits < usable && this.blocks.has(hashes[hits] as number)) hits += 1;
    this.insertHashes(hashes);
    return hits * this.blockSize;
  }

  /**
   * Stores every full block of `ids` (prompt, or prompt + generated tokens). `skipBlocks` leading
   * blocks are known to be fresh already (the prompt just stored by `lookupAndInsert`).
   */
  insert(ids: readonly number[], skipBlocks = 0): void {
    this.insertHashes(this.blockHashes(ids), skipBlocks);
  }

  private insertHashes(hashes: readonly number[], skipBlocks = 0): void {
    for (let i = skipBlocks; i < hashes.length; i += 1) this.touch(hashes[i] as number);
    while (this.blocks.size > this.capacityBlocks) {
      const oldest = this.blocks.keys().next().value as number;
      this.blocks.delete(oldest);
      this.evictions += 1;
    }
  }

  clear(): void {
    this.blocks.clear();
  }

  private touch(hash: number): void {
    this.blocks.delete(hash);
    this.blocks.set(hash, true);
  }
}

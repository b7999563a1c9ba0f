/** One complete cache entry as eviction sees it. */
export interface CacheEntryUsage {
  key: string;
  sizeBytes: number;
  /** When a sandbox last took it, in ms since the epoch. */
  lastUsedMs: number;
  /** Whether a live process holds a lease on it: such an entry is never evicted. */
  isReferenced: boolean;
}

/**
 * The entries to remove so the cache fits in `capBytes`: unreferenced ones, least recently used
 * first, until the total is within the cap (or nothing unreferenced is left — referenced
 * entries may keep the cache over its cap until they are released).
 */
export function chooseEvictions(entries: readonly CacheEntryUsage[], capBytes: number): string[] {
  let total = entries.reduce((sum, entry) => sum + entry.sizeBytes, 0);
  const victims: string[] = [];
  const candidates = entries
    .filter((entry) => !entry.isReferenced)
    .sort((a, b) => a.lastUsedMs - b.lastUsedMs);
  for (const entry of candidates) {
    if (total <= capBytes) break;
    victims.push(entry.key);
    total -= entry.sizeBytes;
  }
  return victims;
}

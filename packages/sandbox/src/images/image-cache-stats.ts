import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** One image the cache holds unpacked, with what this cache object saw of it. */
interface HeldImageReport {
  /** Content key (digest-derived), the entry's directory name. */
  key: string;
  /** References known to name it (the one it was unpacked from, those acquired by here). */
  references: string[];
  /** Bytes of its unpacked root filesystem. */
  sizeBytes: number;
  /** How long its unpack took, in ms, whichever process of the host did it; null when not recorded. */
  unpackMs: number | null;
  /** Acquires of it by this cache object that found it unpacked. */
  hits: number;
  /** Acquires of it by this cache object that had to unpack it. */
  misses: number;
}

/** What an image cache holds and how it served acquires (`ImageCache.report`). */
export interface ImageCacheReport {
  /** Bytes of unpacked images kept before least recently used ones are evicted. */
  capBytes: number;
  /** Bytes its complete entries occupy now (all processes sharing the directory). */
  usedBytes: number;
  /** Acquires since this cache object was made that found their image unpacked. */
  hits: number;
  /** Acquires since this cache object was made that unpacked their image, or failed to. */
  misses: number;
  /** Entries this cache object evicted. */
  evictions: number;
  /** The images held unpacked now, largest first. */
  images: HeldImageReport[];
}

/** What `report` needs of the cache: its held entries (`listUnpacked`) and its directory. */
export interface HeldEntry {
  key: string;
  references: string[];
  sizeBytes: number;
}

interface KeyCounts {
  hits: number;
  misses: number;
  unpackMs?: number;
}

/**
 * Hits, misses and unpack times of one `ImageCache` object, per image key. Counting lives here so
 * that the cache itself only reports each acquire's outcome.
 */
export class ImageCacheCounters {
  #hits = 0;
  #misses = 0;
  readonly #byKey = new Map<string, KeyCounts>();

  /** An acquire that returned a lease (a directory used in place, with no key, is not counted). */
  recordAcquire(lease: { key: string | undefined; isHit: boolean; unpackMs?: number }): void {
    if (lease.key === undefined) return;
    const counts = this.#byKey.get(lease.key) ?? { hits: 0, misses: 0 };
    if (lease.isHit) {
      counts.hits += 1;
      this.#hits += 1;
    } else {
      counts.misses += 1;
      this.#misses += 1;
      if (lease.unpackMs !== undefined) counts.unpackMs = lease.unpackMs;
    }
    this.#byKey.set(lease.key, counts);
  }

  /** An acquire that failed (an unreadable or corrupt image): a miss with nothing held. */
  recordFailure(): void {
    this.#misses += 1;
  }

  /** The report over `held` (the directory's complete entries), reading unpack times from their markers. */
  async report(
    dir: string,
    held: readonly HeldEntry[],
    totals: { capBytes: number; evictions: number },
  ): Promise<ImageCacheReport> {
    const images: HeldImageReport[] = [];
    for (const entry of held) {
      const counts = this.#byKey.get(entry.key);
      const unpackMs = counts?.unpackMs ?? (await readMarkerUnpackMs(dir, entry.key));
      images.push({
        key: entry.key,
        references: [...entry.references].sort(),
        sizeBytes: entry.sizeBytes,
        unpackMs: unpackMs ?? null,
        hits: counts?.hits ?? 0,
        misses: counts?.misses ?? 0,
      });
    }
    images.sort((a, b) => b.sizeBytes - a.sizeBytes || a.key.localeCompare(b.key));
    return {
      capBytes: totals.capBytes,
      usedBytes: images.reduce((sum, image) => sum + image.sizeBytes, 0),
      hits: this.#hits,
      misses: this.#misses,
      evictions: totals.evictions,
      images,
    };
  }
}

/** The unpack time an entry's marker recorded (the process that unpacked it wrote it). */
async function readMarkerUnpackMs(dir: string, key: string): Promise<number | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(dir, "entries", key, "entry.json"), "utf8")) as {
      unpackMs?: unknown;
    };
    return typeof marker.unpackMs === "number" ? marker.unpackMs : undefined;
  } catch {
    return undefined;
  }
}

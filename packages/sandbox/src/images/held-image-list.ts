import type { ImageCache } from "./image-cache";

/** What the list reads of its cache. */
export type HeldImageSource = Pick<ImageCache, "listUnpacked" | "acquiring" | "onChange">;

export interface HeldImageListOptions {
  /** The longest a snapshot of the cache directory is used before it is read again, in ms. Default 1_000. */
  maxAgeMs?: number;
  /** Reading the cache directory failed (the last snapshot stays in use). Default: ignored. */
  onError?: (error: unknown) => void;
  /** Milliseconds now. Default `Date.now`. */
  now?: () => number;
}

/**
 * The images a worker's cache holds, by the references jobs name them with (`QueueItem.image`):
 * those unpacked (`listUnpacked`: the reference each entry was unpacked from and those this
 * process acquired it by) and those being acquired right now (a sandbox's first use, a prefetch),
 * which will be unpacked by the time a job reserved for them needs them.
 *
 * `list` is read at every reserve, so it never touches the disk: it returns a snapshot that is read
 * again in the background when the cache reports a change, and at most `maxAgeMs` after the last
 * read otherwise (other processes sharing the cache directory unpack and evict unseen).
 */
export class HeldImageList {
  readonly #cache: HeldImageSource;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #unsubscribe: () => void;
  #unpacked: readonly string[] = [];
  #readAtMs = Number.NEGATIVE_INFINITY;
  #isStale = true;
  #reading: Promise<void> | null = null;

  constructor(cache: HeldImageSource, options: HeldImageListOptions = {}) {
    this.#cache = cache;
    this.#maxAgeMs = options.maxAgeMs ?? 1_000;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
    this.#unsubscribe = cache.onChange(() => {
      this.#isStale = true;
      void this.refresh();
    });
  }

  /** The held references now; starts a background read when the snapshot is stale. */
  list(): readonly string[] {
    if (this.#isStale || this.#now() - this.#readAtMs >= this.#maxAgeMs) void this.refresh();
    const acquiring = this.#cache.acquiring();
    if (acquiring.length === 0) return this.#unpacked;
    return [...new Set([...this.#unpacked, ...acquiring])];
  }

  /**
   * Reads the cache directory (joining a read in progress); a change reported while reading is
   * followed by another read. Resolves once the snapshot is updated; never rejects.
   */
  refresh(): Promise<void> {
    if (this.#reading) return this.#reading;
    this.#isStale = false;
    const startedMs = this.#now();
    this.#reading = this.#cache
      .listUnpacked()
      .then(
        (images) => {
          this.#unpacked = [...new Set(images.flatMap((image) => image.references))];
        },
        (error: unknown) => this.#onError(error),
      )
      .finally(() => {
        // A failed read too: tried again after maxAgeMs, not at every reserve.
        this.#readAtMs = startedMs;
        this.#reading = null;
        if (this.#isStale) void this.refresh();
      });
    return this.#reading;
  }

  /** Stops following the cache's changes. */
  close(): void {
    this.#unsubscribe();
  }
}

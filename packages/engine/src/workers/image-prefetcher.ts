import { type Clock, systemClock } from "../ports/clock.port";
import type {
  TImagePrefetchProgress,
  TImagePrefetchRequest,
  TWorkerImages,
} from "../ports/worker-images.types";
import { MAX_STORED_PREFETCH_REQUESTS } from "../ports/worker-images.types";

export interface ImagePrefetcherOptions {
  /**
   * Unpacks `reference` into this worker's image cache (or finds it there) and gives the lease
   * straight back: a prefetch holds nothing, so the cache may still evict it under its cap.
   */
  acquire: (
    reference: string,
  ) => Promise<{ isHit: boolean; unpackMs?: number; release: () => Promise<void> }>;
  /** The cache's report (held images, size, hits, misses) without the prefetch progress. */
  report: () => Promise<Omit<TWorkerImages, "prefetches">>;
  /** Something changed (an unpack started or ended): beat now, so the control plane sees it. Default none. */
  onProgress?: () => void;
  clock?: Clock;
}

/**
 * Carries out the prefetch requests a worker reads back from its stored record with each
 * heartbeat (the channel drains come by too): each image of each request not seen before is
 * unpacked, one at a time, and its progress goes out with the following beats.
 */
export class ImagePrefetcher {
  readonly #options: ImagePrefetcherOptions;
  readonly #clock: Clock;
  /** By `requestId reference`, newest last. */
  readonly #progress = new Map<string, TImagePrefetchProgress>();
  #queue: Promise<void> = Promise.resolve();

  constructor(options: ImagePrefetcherOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Takes up the requests not seen before; returns at once (unpacking runs in the background). */
  follow(requests: readonly TImagePrefetchRequest[]): void {
    for (const request of requests) {
      for (const reference of new Set(request.references)) {
        const id = `${request.requestId} ${reference}`;
        if (this.#progress.has(id)) continue;
        this.#set(id, { requestId: request.requestId, reference, status: "pending" });
        this.#queue = this.#queue.then(() => this.#prefetch(id, request.requestId, reference));
      }
    }
    this.#trim();
  }

  /** Resolves when every request taken up so far is done or failed. */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** The cache's report with the progress of the prefetches, most recent first. */
  async report(): Promise<TWorkerImages> {
    const report = await this.#options.report();
    return { ...report, prefetches: [...this.#progress.values()].reverse() };
  }

  async #prefetch(id: string, requestId: string, reference: string): Promise<void> {
    this.#set(id, { requestId, reference, status: "unpacking" });
    this.#options.onProgress?.();
    try {
      const lease = await this.#options.acquire(reference);
      await lease.release();
      this.#set(id, {
        requestId,
        reference,
        status: "done",
        wasCached: lease.isHit,
        unpackMs: lease.unpackMs ?? null,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#set(id, { requestId, reference, status: "failed", error: message });
    }
    this.#options.onProgress?.();
  }

  #set(
    id: string,
    progress: Pick<TImagePrefetchProgress, "requestId" | "reference" | "status"> &
      Partial<Pick<TImagePrefetchProgress, "wasCached" | "unpackMs" | "error">>,
  ): void {
    this.#progress.delete(id);
    this.#progress.set(id, {
      wasCached: null,
      unpackMs: null,
      error: null,
      ...progress,
      updatedAtMs: this.#clock.now(),
    });
  }

  /** Keeps the progress of the newest requests' images only. */
  #trim(): void {
    const excess = this.#progress.size - MAX_STORED_PREFETCH_REQUESTS * 4;
    let dropped = 0;
    for (const [id, progress] of this.#progress) {
      if (dropped >= excess) break;
      if (progress.status === "done" || progress.status === "failed") {
        this.#progress.delete(id);
        dropped += 1;
      }
    }
  }
}

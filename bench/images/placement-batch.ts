// Time-to-first-RUN of a batch over several images, with image-aware placement on or off: each
// worker stands for a host (its own image cache directory and sandbox directory, its own
// bubblewrap runtime) with a few slots; every slot reserves from one queue, starts the job's
// sandbox on its image (unpacking it into the worker's cache on first use) and runs the job's
// first command. With placement on, a reserve names the images the worker holds unpacked or is
// unpacking; off, it names none.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MemoryJobQueue } from "@raas/engine";
import { BubblewrapRuntime, ImageCache } from "@raas/sandbox";
import { VARIANT_MARKER_PATH } from "@raas/sandbox/testing";

export interface PlacementBatchOptions {
  bwrapPath: string;
  /** Where this run's workers keep their caches and sandboxes (one subdirectory each). */
  dir: string;
  /** The images: the one at index i holds marker `i` (`buildTestImageVariants`). */
  images: readonly string[];
  /** Per job, in enqueue order, the index of its image. */
  jobImages: readonly number[];
  workers: number;
  slotsPerWorker: number;
  isPlacementOn: boolean;
  placementMaxWaitMs: number;
}

export interface PlacementBatchResult {
  /** Per job, ms from the batch's enqueue to the start of its first command. */
  firstRunMs: number[];
  /** Images unpacked over all workers. */
  unpacks: number;
  /** Jobs whose worker already held (or was unpacking) their image when it reserved them. */
  placedOnHolder: number;
}

interface Worker {
  id: string;
  cache: ImageCache;
  runtime: BubblewrapRuntime;
  /** Images of the jobs its slots run now, counted (their unpack may still be under way). */
  inFlight: Map<string, number>;
}

async function heldImages(worker: Worker): Promise<string[]> {
  const unpacked = (await worker.cache.listUnpacked()).flatMap((image) => image.references);
  return [...new Set([...unpacked, ...worker.inFlight.keys()])];
}

const count = (map: Map<string, number>, key: string, delta: number) => {
  const next = (map.get(key) ?? 0) + delta;
  if (next > 0) map.set(key, next);
  else map.delete(key);
};

export async function runPlacementBatch(options: PlacementBatchOptions): Promise<PlacementBatchResult> {
  const queue = new MemoryJobQueue({ placementMaxWaitMs: options.placementMaxWaitMs });
  const workers: Worker[] = [];
  for (let index = 0; index < options.workers; index += 1) {
    const dir = join(options.dir, `worker-${index}`);
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const cache = new ImageCache({ dir: join(dir, "images") });
    const runtime = new BubblewrapRuntime({
      bwrapPath: options.bwrapPath,
      baseDir: join(dir, "sandboxes"),
      imageCache: cache,
      warn: () => {},
    });
    workers.push({ id: `worker-${index}`, cache, runtime, inFlight: new Map() });
  }
  const imageOf = new Map(options.jobImages.map((image, index) => [`job-${index}`, image]));
  const markerOf = new Map(options.images.map((image, index) => [image, `${index}\n`]));
  const firstRunMs: number[] = [];
  let placedOnHolder = 0;
  const stop = new AbortController();
  let failure: unknown;
  try {
    const startedAt = performance.now();
    for (const [jobId, index] of imageOf) {
      await queue.enqueue({ jobId, stage: "init", priority: 0, image: options.images[index] ?? null });
    }
    const slot = async (worker: Worker) => {
      while (!stop.signal.aborted) {
        const held = await heldImages(worker);
        const lease = await queue.reserve("init", 600_000, stop.signal, {
          workerId: worker.id,
          ...(options.isPlacementOn ? { images: held } : {}),
        });
        if (!lease) return;
        const image = lease.item.image ?? "";
        if (held.includes(image)) placedOnHolder += 1;
        count(worker.inFlight, image, 1);
        try {
          const sandbox = await worker.runtime.create({ jobId: lease.item.jobId, image });
          try {
            firstRunMs.push(performance.now() - startedAt);
            const run = await sandbox.exec(["cat", VARIANT_MARKER_PATH], { timeoutMs: 60_000 });
            if (run.stdout !== markerOf.get(image)) {
              throw new Error(`job ${lease.item.jobId} ran on the wrong image: ${run.stdout} ${run.stderr}`);
            }
          } finally {
            await sandbox.close();
          }
        } finally {
          count(worker.inFlight, image, -1);
        }
        await queue.ack(lease);
        if (firstRunMs.length === imageOf.size) stop.abort();
      }
    };
    await Promise.all(
      workers.flatMap((worker) =>
        Array.from({ length: options.slotsPerWorker }, () =>
          slot(worker).catch((error: unknown) => {
            failure ??= error;
            stop.abort();
          }),
        ),
      ),
    );
    if (failure) throw failure;
    return {
      firstRunMs,
      unpacks: workers.reduce((sum, worker) => sum + worker.cache.stats.unpacks, 0),
      placedOnHolder,
    };
  } finally {
    stop.abort();
    await queue.close();
    await Promise.all(workers.map((worker) => worker.runtime.closeAll()));
  }
}

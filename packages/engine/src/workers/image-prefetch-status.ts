import type { TImagePrefetchProgress } from "../ports/worker-images.types";
import type { WorkerRecord } from "../ports/worker-store.port";

/** One image of a prefetch on one worker, as the control plane shows it. */
export interface ImagePrefetchEntry {
  workerId: string;
  workerStatus: WorkerRecord["status"];
  progress: TImagePrefetchProgress;
}

/**
 * Where prefetch `requestId` stands: one entry per worker asked and image, from what each worker
 * reported with its heartbeats; `pending` until a worker reports it. Empty when no worker holds
 * the request (unknown, or trimmed away).
 */
export function imagePrefetchStatus(
  workers: readonly WorkerRecord[],
  requestId: string,
): ImagePrefetchEntry[] {
  const entries: ImagePrefetchEntry[] = [];
  for (const worker of workers) {
    const request = worker.prefetchRequests.find((candidate) => candidate.requestId === requestId);
    if (!request) continue;
    for (const reference of new Set(request.references)) {
      const reported = worker.images?.prefetches.find(
        (progress) => progress.requestId === requestId && progress.reference === reference,
      );
      entries.push({
        workerId: worker.id,
        workerStatus: worker.status,
        progress: reported ?? {
          requestId,
          reference,
          status: "pending",
          wasCached: null,
          unpackMs: null,
          error: null,
          updatedAtMs: request.requestedAtMs,
        },
      });
    }
  }
  return entries;
}

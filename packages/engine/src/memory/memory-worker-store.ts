import { MAX_STORED_PREFETCH_REQUESTS, type TImagePrefetchRequest } from "../ports/worker-images.types";
import type { WorkerBeat, WorkerRecord, WorkerRegistration, WorkerStore } from "../ports/worker-store.port";

function copy(worker: WorkerRecord): WorkerRecord {
  return {
    ...worker,
    labels: [...worker.labels],
    pools: structuredClone(worker.pools),
    backends: structuredClone(worker.backends),
    images: structuredClone(worker.images),
    prefetchRequests: structuredClone(worker.prefetchRequests),
  };
}

/**
 * The embedded default's worker registry: one process, so `markLost` is atomic by construction
 * (it runs without awaiting between reading and writing a record).
 */
export class MemoryWorkerStore implements WorkerStore {
  readonly #workers = new Map<string, WorkerRecord>();

  async register(worker: WorkerRegistration): Promise<void> {
    this.#workers.set(
      worker.id,
      copy({
        ...worker,
        backends: worker.backends ?? [],
        images: worker.images ?? null,
        prefetchRequests: this.#workers.get(worker.id)?.prefetchRequests ?? [],
        status: "active",
        unhealthyReason: null,
        stoppedAtMs: null,
      }),
    );
  }

  async heartbeat(workerId: string, beat: WorkerBeat): Promise<WorkerRecord | null> {
    const worker = this.#workers.get(workerId);
    if (!worker) return null;
    if (worker.status === "active" || worker.status === "draining") {
      worker.pools = structuredClone(beat.pools);
      worker.sandboxes = beat.sandboxes;
      if (beat.backends) worker.backends = structuredClone(beat.backends);
      if (beat.unhealthyReason !== undefined) worker.unhealthyReason = beat.unhealthyReason;
      if (beat.images) worker.images = structuredClone(beat.images);
      worker.heartbeatAtMs = beat.atMs;
    }
    return copy(worker);
  }

  async setDraining(workerId: string, draining: boolean): Promise<WorkerRecord | null> {
    const worker = this.#workers.get(workerId);
    if (!worker) return null;
    if (worker.status === "active" || worker.status === "draining") {
      worker.status = draining ? "draining" : "active";
    }
    return copy(worker);
  }

  async markStopped(workerId: string, atMs: number): Promise<void> {
    const worker = this.#workers.get(workerId);
    if (!worker) return;
    worker.status = "stopped";
    worker.stoppedAtMs = atMs;
  }

  async markLost(beforeMs: number, exceptIds: readonly string[] = []): Promise<WorkerRecord[]> {
    const lost: WorkerRecord[] = [];
    for (const worker of this.#workers.values()) {
      if (exceptIds.includes(worker.id)) continue;
      if ((worker.status === "active" || worker.status === "draining") && worker.heartbeatAtMs < beforeMs) {
        worker.status = "lost";
        lost.push(copy(worker));
      }
    }
    return lost;
  }

  async requestPrefetch(workerIds: readonly string[], request: TImagePrefetchRequest): Promise<string[]> {
    const recorded: string[] = [];
    for (const id of workerIds) {
      const worker = this.#workers.get(id);
      if (worker?.status !== "active" && worker?.status !== "draining") continue;
      worker.prefetchRequests = [...worker.prefetchRequests, structuredClone(request)].slice(
        -MAX_STORED_PREFETCH_REQUESTS,
      );
      recorded.push(id);
    }
    return recorded;
  }

  async get(workerId: string): Promise<WorkerRecord | null> {
    const worker = this.#workers.get(workerId);
    return worker ? copy(worker) : null;
  }

  async list(options: { includeStopped?: boolean } = {}): Promise<WorkerRecord[]> {
    return [...this.#workers.values()]
      .filter((worker) => options.includeStopped || worker.status !== "stopped")
      .sort((a, b) => a.startedAtMs - b.startedAtMs || a.id.localeCompare(b.id))
      .map(copy);
  }
}

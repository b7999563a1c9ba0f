import type { TStage } from "@raas/shared";
import type { BackendView } from "./inference-pool.port";
import type { TImagePrefetchRequest, TWorkerImages } from "./worker-images.types";

export type TWorkerStatus = "active" | "draining" | "stopped" | "lost";

export interface WorkerPoolOccupancy {
  concurrency: number;
  active: number;
}

/** One worker process as registered and last heard from. */
export interface WorkerRecord {
  /** Unique per process start, e.g. `node-3:4711:k2f9`. */
  id: string;
  hostname: string;
  pid: number;
  /** Node labels a job can require (e.g. `apptainer`, a hostname). */
  labels: string[];
  /** The stage pools this worker runs, with their occupancy at the last heartbeat. */
  pools: Partial<Record<TStage, WorkerPoolOccupancy>>;
  /** Live sandboxes at the last heartbeat. */
  sandboxes: number;
  /**
   * The worker's own view of each inference backend at the last heartbeat (its in-flight load,
   * counters, circuit, health, weight version: `InferenceBackendRegistry.listBackends()`); empty
   * for a worker that reports none.
   */
  backends: BackendView[];
  status: TWorkerStatus;
  /**
   * Why the worker takes no new work though it runs and heartbeats (its own report, e.g. its
   * sandboxes fail to start); null while healthy.
   */
  unhealthyReason: string | null;
  startedAtMs: number;
  heartbeatAtMs: number;
  stoppedAtMs: number | null;
  /** Its image cache (held images, size, hits, unpack times, prefetch progress) at the last heartbeat; null: none reported. */
  images: TWorkerImages | null;
  /** Prefetches asked of it (`images.prefetch`), oldest first; it reads them back with each heartbeat. */
  prefetchRequests: TImagePrefetchRequest[];
}

/** What one heartbeat reports (the `WorkerHeartbeat` loop in `src/workers/` sends it). */
export interface WorkerBeat {
  pools: Partial<Record<TStage, WorkerPoolOccupancy>>;
  sandboxes: number;
  /** Its backends as it routes to them now. Default: the stored ones are kept. */
  backends?: BackendView[];
  /** Why it takes no new work (see `WorkerRecord.unhealthyReason`); null: healthy. Default: the stored one is kept. */
  unhealthyReason?: string | null;
  /** Its image cache now. Default: the stored report is kept. */
  images?: TWorkerImages;
  atMs: number;
}

/** What `WorkerStore.register` takes: a new record without status (`active`, healthy), with optional backends. */
export type WorkerRegistration = Omit<
  WorkerRecord,
  "status" | "stoppedAtMs" | "backends" | "unhealthyReason" | "images" | "prefetchRequests"
> & {
  backends?: BackendView[];
  images?: TWorkerImages;
};

/**
 * Where workers register and heartbeat, and where the server finds those that went silent.
 * Lives beside the job store (the same database).
 */
export interface WorkerStore {
  register(worker: WorkerRegistration): Promise<void>;
  /** Records a heartbeat; returns the stored record (its `status` tells a worker it was drained). */
  heartbeat(workerId: string, beat: WorkerBeat): Promise<WorkerRecord | null>;
  /** Sets `draining` (true) or back to `active` (false); null when unknown. */
  setDraining(workerId: string, draining: boolean): Promise<WorkerRecord | null>;
  markStopped(workerId: string, atMs: number): Promise<void>;
  /**
   * Marks `active`/`draining` workers whose last heartbeat is older than `beforeMs` as `lost`
   * and returns them (each exactly once, even with several servers racing), but for `exceptIds`
   * (workers known alive another way: heard on the bus).
   */
  markLost(beforeMs: number, exceptIds?: readonly string[]): Promise<WorkerRecord[]>;
  /**
   * Appends `request` to the prefetch requests of each of `workerIds` that is active or draining
   * (keeping the last `MAX_STORED_PREFETCH_REQUESTS`); returns the ids it was recorded for.
   */
  requestPrefetch(workerIds: readonly string[], request: TImagePrefetchRequest): Promise<string[]>;
  get(workerId: string): Promise<WorkerRecord | null>;
  list(options?: { includeStopped?: boolean }): Promise<WorkerRecord[]>;
}

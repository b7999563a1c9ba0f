import type { TStage } from "@raas/shared";

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
  status: TWorkerStatus;
  startedAtMs: number;
  heartbeatAtMs: number;
  stoppedAtMs: number | null;
}

/** What one heartbeat reports (the `WorkerHeartbeat` loop in `src/workers/` sends it). */
export interface WorkerBeat {
  pools: Partial<Record<TStage, WorkerPoolOccupancy>>;
  sandboxes: number;
  atMs: number;
}

/**
 * Where workers register and heartbeat, and where the server finds those that went silent.
 * Lives beside the job store (the same database).
 */
export interface WorkerStore {
  register(worker: Omit<WorkerRecord, "status" | "stoppedAtMs">): Promise<void>;
  /** Records a heartbeat; returns the stored record (its `status` tells a worker it was drained). */
  heartbeat(workerId: string, beat: WorkerBeat): Promise<WorkerRecord | null>;
  /** Sets `draining` (true) or back to `active` (false); null when unknown. */
  setDraining(workerId: string, draining: boolean): Promise<WorkerRecord | null>;
  markStopped(workerId: string, atMs: number): Promise<void>;
  /**
   * Marks `active`/`draining` workers whose last heartbeat is older than `beforeMs` as `lost`
   * and returns them (each exactly once, even with several servers racing).
   */
  markLost(beforeMs: number): Promise<WorkerRecord[]>;
  get(workerId: string): Promise<WorkerRecord | null>;
  list(options?: { includeStopped?: boolean }): Promise<WorkerRecord[]>;
}

import type { TStageProfile } from "./profile";

export type TStage = "init" | "run" | "eval";

export interface TPools {
  init: number;
  run: number;
  eval: number;
}

/** A central service every node shares: a FIFO server with a round trip and a rate limit. */
export interface TCentralService {
  /** Network round trip plus the service's own answer time, in ms. */
  latencyMs: number;
  /** Most operations per second it completes (Infinity: no limit). */
  opsPerSec: number;
}

export interface TScaleSimConfig {
  nodes: number;
  /** Per-node (per-worker) stage concurrency. */
  pools: TPools;
  profile: TStageProfile;
  /** The store (PostgreSQL): writes (commits) are limited, reads only cost the round trip. */
  store: TCentralService;
  /** The queue and event bus (Redis, BullMQ scripts). */
  redis: TCentralService;
  /** Each worker writes a heartbeat to the store and publishes it on the bus this often, in ms. */
  heartbeatIntervalMs: number;
  /** Each active lease is renewed this often (one Redis op per lease), in ms. */
  leaseRenewIntervalMs: number;
  /** Each of a worker's queues runs BullMQ's stalled-lease check this often (one op), in ms. */
  stalledCheckIntervalMs: number;
  /** Queues each worker consumes: a shared one per stage plus its addressed RUN and EVAL. */
  queuesPerWorker: number;
  /** A reserve with nothing to take re-blocks on Redis this often (one op per idle stage), in ms. */
  idleReserveIntervalMs: number;
  /** RUN/EVAL go to the worker holding the job's sandbox (addressed queues); false: shared queues. */
  affinity: boolean;
  /** Jobs the trainer keeps outstanding per node (a closed loop: each completion submits one). */
  outstandingPerNode: number;
  /**
   * Synchronous RL steps instead of the closed loop: the trainer submits this many jobs and the
   * next step's only when all are done (ProRL's training loop: batch 32 × 8 rollouts = 256).
   * 0: the closed loop.
   */
  batchJobs: number;
  /** Virtual time before measuring, in ms. */
  warmupMs: number;
  /** Virtual time measured, in ms. */
  windowMs: number;
  seed: number;
}

export interface TScaleSimResult {
  nodes: number;
  completedInWindow: number;
  jobsPerSec: number;
  /** Mean time a job waited for an INIT slot (the trainer's backlog), in ms. */
  meanInitWaitMs: number;
  /** Mean time a job waited for RUN and EVAL slots together (scheduling delay), in ms. */
  meanRunEvalWaitMs: number;
  storeOpsPerSec: number;
  storeWritesPerSec: number;
  /** Fraction of the store's write capacity in use during the window. */
  storeUtilisation: number;
  redisOpsPerSec: number;
  redisUtilisation: number;
  /** Store writes and Redis ops per completed job (heartbeats and renewals included). */
  storeWritesPerJob: number;
  redisOpsPerJob: number;
  events: number;
}

/** One simulated job: its sampled stage times and what it waited. */
export interface SimJob {
  stageMs: Record<TStage, number>;
  turns: number;
  readyAtMs: number;
  initWaitMs: number;
  runEvalWaitMs: number;
}

import type { TJob, TStage } from "@raas/shared";
import type { HandlerRegistry } from "./handler-registry";
import type { Clock } from "./ports/clock.port";
import type { EventBus } from "./ports/event-bus.port";
import type { InferencePool } from "./ports/inference-pool.port";
import type { JobQueue } from "./ports/job-queue.port";
import type { JobStore } from "./ports/job-store.port";
import type { FairShareOptions } from "./scheduling/fair-share-options";
import type { StoreHealth } from "./store-health/store-health";

/** pino-compatible structured logger; the engine never writes to stdout itself. */
export interface EngineLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

interface StagePoolOptions {
  /** Jobs running this stage at once. Changeable at run time with `setConcurrency`. */
  concurrency: number;
  /** Default time budget of the stage in ms (queue time excluded); jobs may override. */
  timeoutMs: number;
}

export interface EngineOptions {
  store: JobStore;
  queue: JobQueue;
  handlers: HandlerRegistry;
  clock?: Clock;
  logger?: EngineLogger;
  /**
   * The inference pool the handlers generate through: told when a job ends (any terminal state —
   * completed, failed, cancelled) so that the job's sticky backend is released; and handed the
   * engine's `flowOfJob` (when it takes one) to share in-flight capacity fairly between runs, and
   * its `policyOfJob` to route each job to its policy's backends and gate.
   * Default none.
   */
  inference?: Pick<InferencePool, "releaseJob" | "resolveFlowsWith" | "resolvePoliciesWith">;
  /** Defaults: INIT 64 / 300 s, RUN 64 / 3600 s, EVAL 64 / 1800 s. */
  pools?: Partial<Record<TStage, Partial<StagePoolOptions>>>;
  /** Queue lease length in ms; leases are extended while a stage runs. Default 60_000. */
  leaseMs?: number;
  /** Group commit of store writes: flush after this many writes or this delay. Defaults 500 / 5 ms. */
  writeBatch?: { maxWrites?: number; maxDelayMs?: number };
  /**
   * This process's view of its store's reachability (fed by the database client): store writes
   * report to it, and a stage whose job cannot be read while the store is unreachable is put
   * back in the queue instead of failing. Default: a tracker of the engine's own.
   */
  storeHealth?: StoreHealth;
  /**
   * This process's worker id: RUN and EVAL of the jobs whose INIT ran here are queued addressed
   * to it, and a lost worker's jobs are found by it (`recoverWorker`). Unique per process start.
   * Default: generated once per engine (`wrk_…`); apps pass their registered worker id.
   */
  workerId?: string;
  /**
   * The images this worker holds unpacked (as jobs name them, `QueueItem.image`), read at every
   * reserve: the queue then prefers items of those images (image-aware placement). Keep it cheap
   * (a snapshot the worker refreshes). Default: none, no preference.
   */
  heldImages?: () => readonly string[];
  /**
   * The bus shared by every process of a deployment (Redis in distributed mode): cancels reach
   * the process running a job, and job events from every process reach `subscribe` listeners.
   * Default: a private in-process bus (one process, as the embedded default).
   */
  bus?: EventBus;
  /** Starts of a job (INIT attempts) before a lost sandbox fails it as `sandbox`. Default 3. */
  maxAttempts?: number;
  /**
   * Which unfinished jobs `start()` re-queues: `all` (default; this process is the only one on its
   * store) or `unheld` (jobs no worker holds yet and those held under this `workerId`; the others
   * are recovered by `recoverWorker` when their worker is found lost).
   */
  recoverAtStart?: "all" | "unheld";
  /**
   * Fair sharing between training runs: new jobs wait in this engine per run (`metadata.runId`,
   * weight and sandbox cap from `metadata.share`, priority tier = job priority) and are released to
   * the INIT queue in weighted-fair order; optional preemption. Default: off (FIFO by priority).
   */
  fairShare?: FairShareOptions;
  /** Window of the throughput figure in `stats()`. Default 60_000 ms. */
  throughputWindowMs?: number;
  /** Interval of throughput-series samples. Default 2_000 ms; 120 samples kept. */
  sampleEveryMs?: number;
}

export type JobEvent = { type: "job.updated"; job: TJob };
export type JobEventListener = (event: JobEvent) => void;

/** Who submits (`submitJob`, `submitJobs`). */
export interface SubmitOptions {
  /**
   * Fingerprint of the submitting token, recorded as each new job's `ownerId` (a step's jobs get
   * their run's owner). A `jobKey` already used by a job of another owner is a 403. Default null:
   * unowned (library use without tokens).
   */
  ownerId?: string | null;
}

export interface SubmitResult {
  job: TJob;
  /** False when the job key already existed and the existing job was returned. */
  created: boolean;
}

export interface WaitResult {
  jobs: TJob[];
  /** True when every requested job is terminal. */
  done: boolean;
}

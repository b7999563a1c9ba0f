import type { Clock, EngineLogger, JobEventListener, SubmitOptions, SubmitResult } from "@raas/engine";
import type {
  TCancelRequest,
  TJob,
  TStepTask,
  TSubmitJobRequest,
  TTrajectoryExport,
  TTurn,
} from "@raas/shared";
import type { BatchStore } from "../ports/batch-store.port";
import type { CurriculumStore } from "../ports/curriculum-store.port";
import type { TraceCertifier } from "./trace-certification";

/** The engine's public operations the batch system works through (a `RolloutEngine` has them). */
export interface BatchEngine {
  /** A step's jobs are submitted as its run's owner's (`ownerId`). */
  submitJobs(requests: readonly TSubmitJobRequest[], options?: SubmitOptions): Promise<SubmitResult[]>;
  cancel(request: TCancelRequest): Promise<{ cancelled: string[] }>;
  getJob(id: string): Promise<TJob>;
  subscribe(listener: JobEventListener): () => void;
  exportTrajectory(jobId: string): Promise<TTrajectoryExport>;
  getTrajectory(jobId: string): Promise<{ turns: TTurn[] }>;
}

/** Datasets a step may name as its task source (`{ type: "dataset", dataset }`). */
export interface TaskCatalog {
  /** Dataset names with their sizes. */
  list(): Promise<{ name: string; size: number; kinds: string[] }[]>;
  /** The dataset's tasks, or null when there is no such dataset. */
  tasks(name: string): Promise<readonly TStepTask[] | null>;
}

export interface BatchSystemOptions {
  engine: BatchEngine;
  store: BatchStore;
  catalog?: TaskCatalog;
  clock?: Clock;
  logger?: EngineLogger;
  /** Per-task history and curriculum state (adaptive task sampling). Default: in memory. */
  curriculum?: CurriculumStore;
  /**
   * Reads a finished job's token-exactness certificate, for steps with `requireCertifiedTraces`
   * (e.g. `gatewayTraceCertifier(gatewayCalls)`). Without it such steps are refused (400).
   */
  traceCertifier?: TraceCertifier;
  /**
   * The weight version of a policy now (the `PolicyControl`'s `weightVersionOf`): a run's samples
   * are stamped with its policy's version when dispatched, and its steps' staleness is counted in
   * it. Default: none (null) for every policy.
   */
  weightVersion?: (policyId: string) => number | null;
  /**
   * Interval of the sweep that re-reads running members' jobs from the engine, in case a job
   * event was lost (the bus delivers at most once). Default 5_000 ms.
   */
  reconcileEveryMs?: number;
  /**
   * Whether finished steps' trajectories can be archived (a `RetentionSystem` runs beside this
   * system). Without it a run with a `retention` policy is refused (400). Default false.
   */
  archivesTrajectories?: boolean;
}

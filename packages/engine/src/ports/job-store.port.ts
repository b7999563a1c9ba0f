import type { TJobListQuery, TSandboxEvent, TTeacherScore, TToolCall, TTurn } from "@raas/shared";
import type { JobPatch, JobRecord, JobTransitionWrite, StoredJob } from "./job-record.types";

export interface JobListPage {
  items: JobRecord[];
  nextCursor: string | null;
}

/** Totals over every job ever stored, used to seed counters after a restart. */
export interface JobTotals {
  submitted: number;
  completed: number;
  cancelled: number;
  failedByKind: Record<string, number>;
  /** Failed jobs by `failure.label` (only labelled ones; a label absent from the map counts 0). */
  failedByLabel: Record<string, number>;
}

/**
 * Durable job storage. Adapters: in-memory (tests, `--store memory`) and Prisma (PGlite or
 * PostgreSQL). Writes arrive in batches: the engine coalesces them (group commit).
 */
export interface JobStore {
  /** Inserts new jobs. A job whose `jobKey` already exists must not be inserted twice. */
  insertJobs(jobs: readonly JobRecord[]): Promise<void>;
  /** Applies patches in order; several patches of one job may appear in one call. */
  updateJobs(patches: readonly JobPatch[]): Promise<void>;
  /**
   * Compare-and-set transitions, many jobs in one call (the engine's group commit): each write is
   * applied only if its job's stored version equals `expectedVersion`. Resolves to the ids whose
   * write lost (version moved on, or no such job); the others were applied atomically.
   */
  transitionJobs(writes: readonly JobTransitionWrite[]): Promise<string[]>;
  getJob(id: string): Promise<JobRecord | null>;
  /** A job with its version and handoff, for a process about to move it. */
  readJob(id: string): Promise<StoredJob | null>;
  /** Non-terminal jobs whose handoff names `workerId` (for the recovery of a lost worker). */
  listJobsHeldBy(workerId: string): Promise<StoredJob[]>;
  findJobByKey(jobKey: string): Promise<JobRecord | null>;
  /** Newest first; `cursor` is the id of the last item of the previous page. */
  listJobs(query: TJobListQuery): Promise<JobListPage>;
  /** Jobs that were not terminal when the process stopped (for recovery). */
  listUnfinishedJobs(): Promise<JobRecord[]>;
  /** Ids of non-terminal jobs of a group or batch. */
  listJobIds(filter: { groupId?: string; batchId?: string }): Promise<string[]>;
  /**
   * The distinct `ownerId`s (null included) of every job of a group or batch, finished or not;
   * empty when it has no job. Who may cancel, add to or read it.
   */
  listJobOwners(filter: { groupId: string } | { batchId: string }): Promise<Array<string | null>>;
  totals(): Promise<JobTotals>;

  appendTurns(turns: readonly TTurn[]): Promise<void>;
  appendToolCalls(calls: readonly TToolCall[]): Promise<void>;
  listTurns(jobId: string): Promise<TTurn[]>;
  listToolCalls(jobId: string): Promise<TToolCall[]>;
  /** Stores teacher scores; a job's later score replaces its earlier one (a retried flush, a new attempt). */
  appendTeacherScores(scores: readonly TTeacherScore[]): Promise<void>;
  /** The job's teacher score, or null when none was recorded. */
  getTeacherScore(jobId: string): Promise<TTeacherScore | null>;
  /** Removes a job's turns, tool calls and teacher score (before a restarted job records a new attempt). */
  deleteTrajectory(jobId: string): Promise<void>;
  appendSandboxEvents(events: readonly TSandboxEvent[]): Promise<void>;
  listSandboxEvents(filter: { jobId?: string; sandboxId?: string; limit?: number }): Promise<TSandboxEvent[]>;

  close(): Promise<void>;
}

import type { JobHandoff, JobRecord } from "../ports/job-record.types";
import type { Cleanup } from "../ports/task-handler.port";

/** In-memory state of a non-terminal job on this engine. */
export interface LiveJob {
  record: JobRecord;
  /** The stored version `record` will have once this engine's pending transitions commit. */
  version: number;
  /** Where the job's sandbox lives (see `JobHandoff`); null before INIT ran. */
  handoff: JobHandoff | null;
  /** When the job entered its current status (for stage timings). */
  stateSinceMs: number;
  /** The handler's parsed payload. */
  payload: unknown;
  /** Aborts the running stage; null while not active. */
  controller: AbortController | null;
  /** Outputs of finished stages, handed to later stages (e.g. the sandbox from INIT). */
  outputs: StageOutputs;
  /** Cleanups registered with `deferToJobEnd`, run once when the job becomes terminal. */
  jobCleanups: Cleanup[];
  /** Set when another process moved the job: this engine's copy is stale and is dropped. */
  superseded: boolean;
  /**
   * Counted in this engine's queued/active gauges. False for a copy read from the store only to
   * move it once (a cancel or recovery of a job another process held).
   */
  tracked: boolean;
}

export interface StageOutputs {
  init?: unknown;
  run?: unknown;
}

/** A job entering this engine's memory at stored `version`, in its current state since `nowMs`. */
export function newLiveJob(
  record: JobRecord,
  payload: unknown,
  nowMs: number,
  stored: { version: number; handoff: JobHandoff | null } = { version: 0, handoff: null },
  tracked = true,
): LiveJob {
  return {
    record,
    version: stored.version,
    handoff: stored.handoff,
    stateSinceMs: nowMs,
    payload,
    controller: null,
    outputs: {},
    jobCleanups: [],
    superseded: false,
    tracked,
  };
}

/** Runs cleanups newest first; each runs even if an earlier one throws. Returns the errors. */
export async function runCleanups(cleanups: Cleanup[]): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      errors.push(error);
    }
  }
  return errors;
}

import type { JobRecord } from "../ports/job-record.types";
import type { Cleanup } from "../ports/task-handler.port";

/** In-memory state of a non-terminal job on this engine. */
export interface LiveJob {
  record: JobRecord;
  /** When the job entered its current status (for stage timings). */
  stateSinceMs: number;
  /** The handler's parsed payload. */
  payload: unknown;
  /** Aborts the running stage; null while not active. */
  controller: AbortController | null;
  /** Outputs of finished stages, handed to later stages (e.g. the sandbox from INIT). */
  outputs: { init?: unknown; run?: unknown };
  /** Cleanups registered with `deferToJobEnd`, run once when the job becomes terminal. */
  jobCleanups: Cleanup[];
}

/** A job entering this engine's memory, in its current state since `nowMs`. */
export function newLiveJob(record: JobRecord, payload: unknown, nowMs: number): LiveJob {
  return { record, stateSinceMs: nowMs, payload, controller: null, outputs: {}, jobCleanups: [] };
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

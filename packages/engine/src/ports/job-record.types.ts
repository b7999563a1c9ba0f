import type { TJob } from "@raas/shared";

/** The engine's view of a job: the same shape the API serves. */
export type JobRecord = TJob;

/** A partial update of a stored job; `id` selects it. */
export type JobPatch = Pick<JobRecord, "id"> & Partial<Omit<JobRecord, "id" | "createdAtMs">>;

/**
 * What one stage hands to the next, persisted on the job: the worker holding the job (from the
 * moment a stage is activated there) and, after INIT, the id under which that worker keeps the
 * job's live sandbox. RUN and EVAL are addressed to `workerId`; a process that takes a lease for
 * a job whose handoff names a sandbox it does not hold restarts the job from INIT.
 */
export interface JobHandoff {
  workerId: string;
  /** Key of the live stage outputs (the sandbox) in that worker's registry; null during INIT. */
  sandboxId: string | null;
}

/** A stored job with its compare-and-set version and its handoff. */
export interface StoredJob {
  record: JobRecord;
  /** Bumped by every transition; a transition names the version it read. */
  version: number;
  handoff: JobHandoff | null;
}

/**
 * One compare-and-set transition: applies `patch` (and `handoff`, when given) only if the stored
 * version is still `expectedVersion`, and sets the version to `version` (> expectedVersion; several
 * transitions of one job coalesced into one write bump it by their count).
 */
export interface JobTransitionWrite {
  patch: JobPatch;
  expectedVersion: number;
  version: number;
  /** Undefined: left as stored. */
  handoff?: JobHandoff | null;
}

import type { JobHandoff, JobRecord, StoredJob } from "@raas/engine";
import type { TFailureKind, TFailureLabel, TJobStatus, TStage, TStageTimeoutsMs } from "@raas/shared";
import type { Job as JobRow } from "../generated/client";

/** The `JobRecord` a stored row represents; the exact shape the API serves. */
export function fromJobRow(row: JobRow): JobRecord {
  return {
    id: row.id,
    jobKey: row.jobKey,
    kind: row.kind,
    status: row.status as TJobStatus,
    stage: row.stage as TStage | null,
    priority: row.priority,
    groupId: row.groupId,
    batchId: row.batchId,
    payload: row.payload as Record<string, unknown>,
    metadata: row.metadata as Record<string, unknown> | null,
    ownerId: row.ownerId,
    policyId: row.policyId,
    timeoutsMs: row.timeoutsMs as TStageTimeoutsMs | null,
    failure:
      row.failureKind === null
        ? null
        : {
            kind: row.failureKind as TFailureKind,
            stage: (row.failureStage ?? "init") as TStage,
            message: row.failureMessage ?? "",
            // Left out when none, as the engine's records do (a label is the exception).
            ...(row.failureLabel !== null ? { label: row.failureLabel as TFailureLabel } : {}),
          },
    reward: row.reward,
    trainable: row.trainable,
    result: row.result ?? null,
    timings: { queueMs: row.queueMs, initMs: row.initMs, runMs: row.runMs, evalMs: row.evalMs },
    attempts: row.attempts,
    createdAtMs: row.createdAtMs,
    updatedAtMs: row.updatedAtMs,
    finishedAtMs: row.finishedAtMs,
  };
}

/** A stored row with its compare-and-set version and handoff. */
export function fromStoredJobRow(row: JobRow): StoredJob {
  return {
    record: fromJobRow(row),
    version: row.version,
    handoff: (row.handoff ?? null) as JobHandoff | null,
  };
}

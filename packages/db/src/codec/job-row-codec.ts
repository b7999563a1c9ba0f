import { type JobRecord, type StoredJob, ZJobHandoff } from "@raas/engine";
import {
  type TFailureKind,
  type TFailureLabel,
  type TJobStatus,
  type TStage,
  ZJob,
  ZTurnRewards,
} from "@raas/shared";
import type { Job as JobRow } from "../generated/client";
import { parseJsonColumn } from "./json-column";

const ZStoredHandoff = ZJobHandoff.nullable();

const at = (row: JobRow, column: string) => ({ table: "jobs", column, rowId: row.id });

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
    payload: parseJsonColumn(ZJob.shape.payload, row.payload, at(row, "payload")),
    metadata: parseJsonColumn(ZJob.shape.metadata, row.metadata, at(row, "metadata")),
    ownerId: row.ownerId,
    policyId: row.policyId,
    timeoutsMs: parseJsonColumn(ZJob.shape.timeoutsMs, row.timeoutsMs, at(row, "timeouts_ms")),
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
    // Absent, as the engine's records have it, when the verifier gave none.
    ...(row.turnRewards !== null
      ? { turnRewards: parseJsonColumn(ZTurnRewards, row.turnRewards, at(row, "turn_rewards")) }
      : {}),
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
    handoff: parseJsonColumn(ZStoredHandoff, row.handoff ?? null, at(row, "handoff")),
  };
}

import { emptyStepStats, newId, type TCreateStepParsed, type ZCreateRunRequest } from "@raas/shared";
import type { z } from "zod";
import type { RunRecord, StepRecord } from "../ports/batch-store.port";
import { emptyRewardAggregate } from "./step-stats";

/** The stored record of a new active run (`ownerId`: fingerprint of the creating token, or null). */
export function newRunRecord(
  input: z.output<typeof ZCreateRunRequest>,
  ownerId: string | null,
  nowMs: number,
): RunRecord {
  return {
    id: newId("run", nowMs),
    runKey: input.runKey ?? null,
    name: input.name,
    model: input.model ?? null,
    dataset: input.dataset ?? null,
    config: input.config ?? null,
    status: "active",
    share: input.share,
    priority: input.priority,
    maxSandboxes: input.maxSandboxes ?? null,
    image: input.image ?? null,
    retention: input.retention ?? null,
    ownerId,
    policyId: input.policyId,
    stepCount: 0,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    taskCursors: {},
    version: 0,
  };
}

/**
 * The stored record of a run's next step: indexed after the run's last one, drawing a dataset
 * from where the run's earlier steps left it.
 */
export function newStepRecord(run: RunRecord, input: TCreateStepParsed, nowMs: number): StepRecord {
  return {
    id: newId("stp", nowMs),
    runId: run.id,
    index: run.stepCount,
    stepKey: input.stepKey ?? null,
    status: "running",
    groupSize: input.groupSize,
    groups: input.groups,
    policy: input.dynamicSampling.policy,
    stats: emptyStepStats(),
    deliveredSeq: 0,
    createdAtMs: nowMs,
    closedAtMs: null,
    request: input,
    nextTaskIndex: input.tasks.type === "dataset" ? (run.taskCursors[input.tasks.dataset] ?? 0) : 0,
    rewards: emptyRewardAggregate(),
    version: 0,
  };
}

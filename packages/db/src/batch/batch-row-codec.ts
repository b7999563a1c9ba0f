import {
  type TGroupDecision,
  type TGroupState,
  type TPauseMode,
  type TPolicyState,
  type TStepStatus,
  ZCreateStepRequest,
  ZGroup,
  ZRun,
  ZStepStats,
  ZStepTask,
} from "@raas/shared";
import {
  type GroupRecord,
  type RunRecord,
  type StepRecord,
  ZRewardAggregate,
  ZTaskCursors,
} from "@raas/training";
import { type JsonColumnSite, parseJsonColumn } from "../codec/json-column";
import {
  type TrainingGroup as GroupRow,
  type Policy as PolicyRow,
  Prisma,
  type TrainingRun as RunRow,
  type TrainingStep as StepRow,
} from "../generated/client";

// Row ↔ record mapping of the batch tables. JSON columns hold the engine's plain-data values as
// they are (jsonb drops `undefined` keys, as any JSON round trip does) and are read back through
// the same zod schemas that validated them on the way in: a malformed value fails here, naming
// its column and row, not somewhere deep in the batch system.

const at =
  (table: string, rowId: string) =>
  (column: string): JsonColumnSite => ({ table, column, rowId });

/** A nullable JSON column: `null` is stored as SQL NULL, not the JSON literal. */
function nullableJson(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null || value === undefined ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

const json = (value: unknown): Prisma.InputJsonValue => value as Prisma.InputJsonValue;

/** The columns a run's save writes (all but `id` and `version`). */
export function runColumns(run: RunRecord) {
  return {
    runKey: run.runKey,
    name: run.name,
    model: run.model,
    dataset: run.dataset,
    config: nullableJson(run.config),
    status: run.status,
    stepCount: run.stepCount,
    taskCursors: json(run.taskCursors),
    share: run.share,
    priority: run.priority,
    maxSandboxes: run.maxSandboxes,
    image: run.image,
    retention: nullableJson(run.retention),
    ownerId: run.ownerId,
    policyId: run.policyId,
    createdAtMs: run.createdAtMs,
    updatedAtMs: run.updatedAtMs,
  };
}

export function fromRunRow(row: RunRow): RunRecord {
  const site = at("training_runs", row.id);
  return {
    id: row.id,
    runKey: row.runKey,
    name: row.name,
    model: row.model,
    dataset: row.dataset,
    config: parseJsonColumn(ZRun.shape.config, row.config, site("config")),
    status: row.status as RunRecord["status"],
    share: row.share,
    priority: row.priority,
    maxSandboxes: row.maxSandboxes,
    image: row.image,
    retention: parseJsonColumn(ZRun.shape.retention, row.retention, site("retention")),
    ownerId: row.ownerId,
    policyId: row.policyId,
    stepCount: row.stepCount,
    createdAtMs: row.createdAtMs,
    updatedAtMs: row.updatedAtMs,
    taskCursors: parseJsonColumn(ZTaskCursors, row.taskCursors, site("task_cursors")),
    version: row.version,
  };
}

/**
 * The columns a step's save writes (all but `id`, `version` and the fixed `request`, which can
 * hold 10_000 inline tasks and would otherwise be rewritten at every group decision).
 */
export function stepColumns(step: StepRecord) {
  return {
    runId: step.runId,
    index: step.index,
    stepKey: step.stepKey,
    status: step.status,
    groupSize: step.groupSize,
    groups: step.groups,
    policy: step.policy,
    stats: json(step.stats),
    deliveredSeq: step.deliveredSeq,
    nextTaskIndex: step.nextTaskIndex,
    rewards: json(step.rewards),
    createdAtMs: step.createdAtMs,
    closedAtMs: step.closedAtMs,
  };
}

/** Every column of a new step. */
export function stepInsertColumns(step: StepRecord) {
  return { id: step.id, ...stepColumns(step), request: json(step.request), version: step.version };
}

export function fromStepRow(row: StepRow): StepRecord {
  const site = at("training_steps", row.id);
  return {
    id: row.id,
    runId: row.runId,
    index: row.index,
    stepKey: row.stepKey,
    status: row.status as TStepStatus,
    groupSize: row.groupSize,
    groups: row.groups,
    policy: row.policy as StepRecord["policy"],
    stats: parseJsonColumn(ZStepStats, row.stats, site("stats")),
    deliveredSeq: row.deliveredSeq,
    createdAtMs: row.createdAtMs,
    closedAtMs: row.closedAtMs,
    request: parseJsonColumn(ZCreateStepRequest, row.request, site("request")),
    nextTaskIndex: row.nextTaskIndex,
    rewards: parseJsonColumn(ZRewardAggregate, row.rewards, site("rewards")),
    version: row.version,
  };
}

/** The columns a group's save writes (all but `id`, `version` and the fixed `task`). */
export function groupColumns(group: GroupRecord) {
  return {
    stepId: group.stepId,
    runId: group.runId,
    taskId: group.taskId,
    kind: group.kind,
    decision: group.decision,
    state: group.state,
    seq: group.seq,
    members: json(group.members),
    carriedIntoGroupId: group.carriedIntoGroupId,
    expiredInStepId: group.expiredInStepId,
    createdAtMs: group.createdAtMs,
    decidedAtMs: group.decidedAtMs,
    finishedAtMs: group.finishedAtMs,
  };
}

/** Every column of a new group. */
export function groupInsertColumns(group: GroupRecord) {
  return { id: group.id, ...groupColumns(group), task: json(group.task), version: group.version };
}

export function fromGroupRow(row: GroupRow): GroupRecord {
  const site = at("training_groups", row.id);
  return {
    id: row.id,
    stepId: row.stepId,
    runId: row.runId,
    taskId: row.taskId,
    kind: row.kind,
    decision: row.decision as TGroupDecision,
    state: row.state as TGroupState,
    seq: row.seq,
    members: parseJsonColumn(ZGroup.shape.members, row.members, site("members")),
    createdAtMs: row.createdAtMs,
    decidedAtMs: row.decidedAtMs,
    finishedAtMs: row.finishedAtMs,
    task: parseJsonColumn(ZStepTask, row.task, site("task")),
    carriedIntoGroupId: row.carriedIntoGroupId,
    expiredInStepId: row.expiredInStepId,
    version: row.version,
  };
}

/** The columns of a `policies` row but its id. */
export function policyColumns(state: TPolicyState) {
  return {
    ownerId: state.ownerId,
    weightVersion: state.weightVersion,
    isPaused: state.isPaused,
    pauseMode: state.pauseMode,
    pausedAtMs: state.pausedAtMs,
  };
}

export function fromPolicyRow(row: PolicyRow): TPolicyState {
  return {
    policyId: row.id,
    ownerId: row.ownerId,
    weightVersion: row.weightVersion,
    isPaused: row.isPaused,
    pauseMode: row.pauseMode as TPauseMode | null,
    pausedAtMs: row.pausedAtMs,
  };
}

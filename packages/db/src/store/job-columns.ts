import type { JobPatch, JobRecord } from "@raas/engine";
import { type ColumnSpec, jsonParam } from "../sql/bulk-statements";

/**
 * The `jobs` columns the bulk writes use, in order. Must match prisma/schema.prisma (model Job);
 * the store contract tests round-trip every field and fail when they drift apart.
 */
export const JOB_COLUMNS: readonly ColumnSpec[] = [
  { name: "id", type: "text" },
  { name: "job_key", type: "text" },
  { name: "kind", type: "text" },
  { name: "status", type: "text" },
  { name: "stage", type: "text" },
  { name: "priority", type: "int4" },
  { name: "group_id", type: "text" },
  { name: "batch_id", type: "text" },
  { name: "payload", type: "jsonb" },
  { name: "metadata", type: "jsonb" },
  { name: "timeouts_ms", type: "jsonb" },
  { name: "failure_kind", type: "text" },
  { name: "failure_stage", type: "text" },
  { name: "failure_message", type: "text" },
  { name: "failure_label", type: "text" },
  { name: "reward", type: "float8" },
  { name: "trainable", type: "bool" },
  { name: "turn_rewards", type: "jsonb" },
  { name: "result", type: "jsonb" },
  { name: "queue_ms", type: "float8" },
  { name: "init_ms", type: "float8" },
  { name: "run_ms", type: "float8" },
  { name: "eval_ms", type: "float8" },
  { name: "attempts", type: "int4" },
  { name: "created_at_ms", type: "float8" },
  { name: "updated_at_ms", type: "float8" },
  { name: "finished_at_ms", type: "float8" },
  { name: "run_id", type: "text" },
  { name: "task_id", type: "text" },
  { name: "owner_id", type: "text" },
  { name: "policy_id", type: "text" },
];

const COLUMN_BY_NAME = new Map(JOB_COLUMNS.map((column) => [column.name, column]));

/** A new job's values, ordered like `JOB_COLUMNS`. */
export function jobRowValues(job: JobRecord): unknown[] {
  return [
    job.id,
    job.jobKey,
    job.kind,
    job.status,
    job.stage,
    job.priority,
    job.groupId,
    job.batchId,
    jsonParam(job.payload ?? {}),
    jsonParam(job.metadata),
    jsonParam(job.timeoutsMs),
    job.failure?.kind ?? null,
    job.failure?.stage ?? null,
    job.failure?.message ?? null,
    job.failure?.label ?? null,
    job.reward,
    job.trainable,
    jsonParam(job.turnRewards ?? null),
    jsonParam(job.result),
    job.timings.queueMs,
    job.timings.initMs,
    job.timings.runMs,
    job.timings.evalMs,
    job.attempts,
    job.createdAtMs,
    job.updatedAtMs,
    job.finishedAtMs,
    metadataString(job.metadata, "runId"),
    metadataString(job.metadata, "taskId"),
    job.ownerId,
    job.policyId,
  ];
}

/**
 * `metadata.runId` / `metadata.taskId` copied into their indexed columns: a string, or null (the
 * list filters compare strings, as the JSON-path filter they replace did).
 */
function metadataString(metadata: Record<string, unknown> | null | undefined, key: string): string | null {
  const value = metadata?.[key];
  return typeof value === "string" ? value : null;
}

/** Record fields stored in exactly one column of the same meaning. */
const SIMPLE_FIELDS = {
  jobKey: "job_key",
  kind: "kind",
  status: "status",
  stage: "stage",
  priority: "priority",
  groupId: "group_id",
  batchId: "batch_id",
  ownerId: "owner_id",
  policyId: "policy_id",
  reward: "reward",
  trainable: "trainable",
  attempts: "attempts",
  updatedAtMs: "updated_at_ms",
  finishedAtMs: "finished_at_ms",
} as const satisfies Partial<Record<keyof JobPatch, string>>;

const JSON_FIELDS = {
  payload: "payload",
  metadata: "metadata",
  timeoutsMs: "timeouts_ms",
  result: "result",
  turnRewards: "turn_rewards",
} as const;

/**
 * The column assignments of one patch, as `[column, value]` pairs. A field left out (or
 * `undefined`) is not touched; `failure` and `timings` replace all of their columns.
 */
export function jobPatchAssignments(patch: JobPatch): Array<[ColumnSpec, unknown]> {
  const out: Array<[ColumnSpec, unknown]> = [];
  const set = (name: string, value: unknown) => out.push([COLUMN_BY_NAME.get(name) as ColumnSpec, value]);
  for (const [field, column] of Object.entries(SIMPLE_FIELDS)) {
    const value = patch[field as keyof typeof SIMPLE_FIELDS];
    if (value !== undefined) set(column, value);
  }
  for (const [field, column] of Object.entries(JSON_FIELDS)) {
    const value = patch[field as keyof typeof JSON_FIELDS];
    if (value !== undefined) set(column, jsonParam(value));
  }
  if (patch.metadata !== undefined) {
    set("run_id", metadataString(patch.metadata, "runId"));
    set("task_id", metadataString(patch.metadata, "taskId"));
  }
  if (patch.failure !== undefined) {
    set("failure_kind", patch.failure?.kind ?? null);
    set("failure_stage", patch.failure?.stage ?? null);
    set("failure_message", patch.failure?.message ?? null);
    set("failure_label", patch.failure?.label ?? null);
  }
  if (patch.timings !== undefined) {
    set("queue_ms", patch.timings.queueMs);
    set("init_ms", patch.timings.initMs);
    set("run_ms", patch.timings.runMs);
    set("eval_ms", patch.timings.evalMs);
  }
  return out;
}

export const JOB_ID_COLUMN = COLUMN_BY_NAME.get("id") as ColumnSpec;

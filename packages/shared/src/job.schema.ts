import { z } from "zod";
import { ZId, zFilterString, zIdString, zJsonObjectWithoutNul } from "./id.schema";
import { JOB_LIST_TRAJECTORY_FILTERS } from "./job-list-trajectory-filters.schema";
import { ZFailureKind, ZFailureLabel, ZJobStatus } from "./job-status";
import { DEFAULT_POLICY_ID, ZPolicyId } from "./policy.schema";
import { ZStage } from "./stage";
import { ZTurnRewards } from "./turn-reward.schema";

const ZStageBudgetMs = z.number().int().positive().max(86_400_000);

/** Per-stage time budgets in milliseconds; time spent queued does not count. */
export const ZStageTimeoutsMs = z
  .object({
    init: ZStageBudgetMs.optional().describe("INIT budget in ms (1 to 86_400_000). Default: the server's."),
    run: ZStageBudgetMs.optional().describe("RUN budget in ms (1 to 86_400_000). Default: the server's."),
    eval: ZStageBudgetMs.optional().describe("EVAL budget in ms (1 to 86_400_000). Default: the server's."),
  })
  .strict()
  .meta({
    id: "StageTimeoutsMs",
    description: "Per-stage time budgets in ms; time spent queued does not count.",
  });

/** Fields of a submit request; compared field by field when a `jobKey` is reused. */
export const SUBMIT_REQUEST_FIELDS = [
  "kind",
  "payload",
  "priority",
  "groupId",
  "batchId",
  "timeoutsMs",
  "metadata",
  "policyId",
] as const;

export const ZSubmitJobRequest = z
  .object({
    kind: z
      .string()
      .min(1)
      .max(100)
      .describe("Handler kind (e.g. `math`, `code`, `swe`, `sleep`); must be registered on the server."),
    payload: zJsonObjectWithoutNul()
      .default({})
      .describe("The task instance, validated by the handler of `kind` (see the per-kind payload schemas)."),
    jobKey: zIdString(300)
      .optional()
      .describe(
        "Idempotency key: the same key with the same request returns the existing job (200); with a different request it is a 409 naming the fields that differ.",
      ),
    priority: z
      .number()
      .int()
      .min(-1_000_000)
      .max(1_000_000)
      .default(0)
      .describe("Higher runs first within a stage queue. Default 0."),
    groupId: ZId.optional().describe("The GRPO/DAPO group this trajectory belongs to (caller-chosen id)."),
    batchId: ZId.optional().describe("The batch (trainer step) this job belongs to (caller-chosen id)."),
    timeoutsMs: ZStageTimeoutsMs.optional(),
    metadata: zJsonObjectWithoutNul()
      .optional()
      .describe("Free-form labels for the caller (run name, step, …); stored, never interpreted."),
    policyId: ZPolicyId.default(DEFAULT_POLICY_ID).describe(
      `The policy whose backends generate for the job (and whose pause holds it). Default \`${DEFAULT_POLICY_ID}\`.`,
    ),
  })
  .strict()
  .meta({ id: "SubmitJobRequest", description: "One rollout job to create." });
export type TSubmitJobRequest = z.input<typeof ZSubmitJobRequest>;
export type TSubmitJobParsed = z.output<typeof ZSubmitJobRequest>;

const ZFailure = z
  .object({
    kind: ZFailureKind,
    stage: ZStage.describe("The stage the job failed in."),
    message: z.string().describe("What went wrong, in one sentence."),
    label: ZFailureLabel.nullable()
      .optional()
      .describe(
        "What more the engine knows than the kind: `tampered` (kind `agent`) = a grader's canary tests reported a false outcome, so the grade was voided (reward 0, trainable); `misconfigured` (kind `sandbox`) = the job's own configuration failed (e.g. an MCP server its environment declares could not start), so it was not retried and re-running it would fail the same way (reward null, not trainable). Absent (or null) otherwise.",
      ),
  })
  .meta({ id: "Failure", description: "Why a job did not complete; who caused it decides the kind." });
export type TFailure = z.infer<typeof ZFailure>;

export const ZStageTimings = z
  .object({
    queueMs: z.number().describe("Total time spent waiting in stage queues, in ms."),
    initMs: z.number().nullable().describe("Time inside INIT in ms; null until INIT ended."),
    runMs: z.number().nullable().describe("Time inside RUN in ms; null until RUN ended."),
    evalMs: z.number().nullable().describe("Time inside EVAL in ms; null until EVAL ended."),
  })
  .meta({ id: "StageTimings", description: "Where a job's time went, per stage." });
export type TStageTimings = z.infer<typeof ZStageTimings>;

export const ZJob = z
  .object({
    id: z.string().describe("The job's id (`job_…`, time-sortable)."),
    jobKey: z.string().nullable().describe("The idempotency key it was submitted with, or null."),
    kind: z.string().describe("Handler kind."),
    status: ZJobStatus,
    stage: ZStage.nullable().describe(
      "The stage the job is queued for or running in; the stage it stopped in when terminal; null before INIT is queued.",
    ),
    priority: z.number().int().describe("Higher runs first within a stage queue."),
    groupId: z.string().nullable().describe("Its group id, or null."),
    batchId: z.string().nullable().describe("Its batch id, or null."),
    payload: z.record(z.string(), z.unknown()).describe("The task instance as submitted."),
    metadata: z.record(z.string(), z.unknown()).nullable().describe("The caller's labels, or null."),
    ownerId: z
      .string()
      .nullable()
      .describe(
        "Fingerprint of the token that submitted the job (`token:` + 16 hex digits of its SHA-256; a step's jobs belong to its run's owner). Cancelling it, or its group or batch, needs that token or an admin token. Null: submitted without a token, or before owners were recorded.",
      ),
    policyId: z
      .string()
      .describe("The policy whose backends generate for the job and whose weight-sync pause holds it."),
    timeoutsMs: ZStageTimeoutsMs.nullable().describe(
      "Per-stage budgets the job was submitted with, or null.",
    ),
    failure: ZFailure.nullable().describe("Why the job failed or was cancelled; null otherwise."),
    reward: z
      .number()
      .nullable()
      .describe(
        "The grader's reward of a completed job; the handler's failure reward (default 0) of an `agent` failure, always 0 for a `tampered` one; null while running and for every infrastructure failure, `misconfigured` failure, timeout and cancel.",
      ),
    trainable: z
      .boolean()
      .nullable()
      .describe(
        "True only for completed jobs and `agent` failures; false for other failures; null while running.",
      ),
    turnRewards: ZTurnRewards.optional().describe(
      "Per-turn rewards the verifier attached at EVAL (`reward.json` / verify.py `turn_rewards`), each naming a turn of the trajectory; absent when it gave none. The scalar `reward` stays the job's; a tool's per-call rewards are on its tool calls.",
    ),
    result: z
      .unknown()
      .nullable()
      .describe(
        "Handler-defined evaluation detail (see the per-kind result schemas); null until EVAL ended. A failed job keeps the report its handler attached to the failure (a `tampered` grade's report says which canary lied), else null.",
      ),
    timings: ZStageTimings,
    attempts: z.number().int().describe("How many times the job was started (1 unless it was retried)."),
    createdAtMs: z.number().describe("Creation time, ms since the Unix epoch."),
    updatedAtMs: z.number().describe("Last change, ms since the Unix epoch."),
    finishedAtMs: z
      .number()
      .nullable()
      .describe("When it became terminal (ms since the Unix epoch), or null."),
  })
  .meta({ id: "Job", description: "One rollout job (a trajectory): status, stage, reward and timings." });
export type TJob = z.infer<typeof ZJob>;

export const ZJobListRequest = z
  .object({
    status: ZJobStatus.optional().describe("Only jobs in this status."),
    stage: ZStage.optional().describe("Only jobs in (or stopped in) this stage."),
    kind: zFilterString(100).optional().describe("Only jobs of this handler kind."),
    failureKind: ZFailureKind.optional().describe("Only failed jobs of this failure kind."),
    failureLabel: ZFailureLabel.optional().describe(
      "Only failed jobs with this failure label (`tampered`: grades voided because a canary lied; `misconfigured`: jobs their own configuration failed).",
    ),
    groupId: ZId.optional().describe("Only jobs of this group."),
    batchId: ZId.optional().describe("Only jobs of this batch."),
    search: zFilterString(300).optional().describe("Substring match on job id or job key."),
    ...JOB_LIST_TRAJECTORY_FILTERS,
    cursor: zIdString(300)
      .optional()
      .describe("The `nextCursor` of the previous page; omit for the first page."),
    limit: z.number().int().min(1).max(500).default(50).describe("Page size, 1 to 500. Default 50."),
  })
  .strict()
  .meta({ description: "Filters and paging of a job list; every filter is optional." });
export type TJobListRequest = z.input<typeof ZJobListRequest>;
export type TJobListQuery = z.output<typeof ZJobListRequest>;

export const ZJobListResponse = z
  .object({
    items: z.array(ZJob).describe("Jobs, newest first."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pass back as `cursor` for the next page; null on the last page."),
  })
  .meta({ description: "One page of jobs." });
export type TJobListResponse = z.infer<typeof ZJobListResponse>;

/** Cancel one job, every job of a group, or every job of a batch. Exactly one must be given. */
export const ZCancelRequest = z
  .object({
    jobId: ZId.optional().describe("Cancel this job."),
    groupId: ZId.optional().describe("Cancel every unfinished job of this group."),
    batchId: ZId.optional().describe("Cancel every unfinished job of this batch."),
  })
  .strict()
  .refine((v) => [v.jobId, v.groupId, v.batchId].filter((x) => x !== undefined).length === 1, {
    message: "give exactly one of jobId, groupId or batchId",
  })
  .meta({ description: "What to cancel: exactly one of jobId, groupId or batchId." });
export type TCancelRequest = z.infer<typeof ZCancelRequest>;

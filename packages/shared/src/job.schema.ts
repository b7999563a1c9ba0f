import { z } from "zod";
import { ZFailureKind, ZJobStatus } from "./job-status";
import { ZStage } from "./stage";

const ZId = z.string().min(1).max(200);

/** Per-stage time budgets in milliseconds; time spent queued does not count. */
export const ZStageTimeoutsMs = z
  .object({
    init: z.number().int().positive().max(86_400_000).optional(),
    run: z.number().int().positive().max(86_400_000).optional(),
    eval: z.number().int().positive().max(86_400_000).optional(),
  })
  .strict();
export type TStageTimeoutsMs = z.infer<typeof ZStageTimeoutsMs>;

export const ZSubmitJobRequest = z
  .object({
    /** Handler kind, e.g. `swe`, `math`, `sleep`. Must be registered on the server. */
    kind: z.string().min(1).max(100),
    /** The task instance, validated by the handler's own schema. */
    payload: z.record(z.string(), z.unknown()).default({}),
    /** Idempotency key: submitting the same key again returns the existing job. */
    jobKey: z.string().min(1).max(300).optional(),
    /** Higher runs first within a stage queue. */
    priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    groupId: ZId.optional(),
    batchId: ZId.optional(),
    timeoutsMs: ZStageTimeoutsMs.optional(),
    /** Free-form labels for the caller (run name, step, …); stored, never interpreted. */
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type TSubmitJobRequest = z.input<typeof ZSubmitJobRequest>;
export type TSubmitJobParsed = z.output<typeof ZSubmitJobRequest>;

export const ZFailure = z.object({
  kind: ZFailureKind,
  stage: ZStage,
  message: z.string(),
});
export type TFailure = z.infer<typeof ZFailure>;

export const ZStageTimings = z.object({
  /** Total time spent waiting in stage queues. */
  queueMs: z.number(),
  initMs: z.number().nullable(),
  runMs: z.number().nullable(),
  evalMs: z.number().nullable(),
});
export type TStageTimings = z.infer<typeof ZStageTimings>;

export const ZJob = z.object({
  id: z.string(),
  jobKey: z.string().nullable(),
  kind: z.string(),
  status: ZJobStatus,
  /** The stage the job is queued for or running in; the stage it stopped in when terminal. */
  stage: ZStage.nullable(),
  priority: z.number().int(),
  groupId: z.string().nullable(),
  batchId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  timeoutsMs: ZStageTimeoutsMs.nullable(),
  failure: ZFailure.nullable(),
  /**
   * The grader's reward of a completed job; the handler's failure reward (default 0) of an `agent`
   * failure; null while running and for every infrastructure failure, timeout and cancel.
   */
  reward: z.number().nullable(),
  /** True only for completed jobs and `agent` failures. Null while running. */
  trainable: z.boolean().nullable(),
  /** Handler-defined evaluation detail (e.g. FAIL_TO_PASS lists). */
  result: z.unknown().nullable(),
  timings: ZStageTimings,
  attempts: z.number().int(),
  createdAtMs: z.number(),
  updatedAtMs: z.number(),
  finishedAtMs: z.number().nullable(),
});
export type TJob = z.infer<typeof ZJob>;

export const ZJobListRequest = z
  .object({
    status: ZJobStatus.optional(),
    stage: ZStage.optional(),
    kind: z.string().max(100).optional(),
    failureKind: ZFailureKind.optional(),
    groupId: ZId.optional(),
    batchId: ZId.optional(),
    /** Substring match on job id or job key. */
    search: z.string().max(300).optional(),
    cursor: z.string().max(300).optional(),
    limit: z.number().int().min(1).max(500).default(50),
  })
  .strict();
export type TJobListRequest = z.input<typeof ZJobListRequest>;
export type TJobListQuery = z.output<typeof ZJobListRequest>;

export const ZJobListResponse = z.object({
  items: z.array(ZJob),
  nextCursor: z.string().nullable(),
});
export type TJobListResponse = z.infer<typeof ZJobListResponse>;

/** Cancel one job, every job of a group, or every job of a batch. Exactly one must be given. */
export const ZCancelRequest = z
  .object({ jobId: ZId.optional(), groupId: ZId.optional(), batchId: ZId.optional() })
  .strict()
  .refine((v) => [v.jobId, v.groupId, v.batchId].filter((x) => x !== undefined).length === 1, {
    message: "give exactly one of jobId, groupId or batchId",
  });
export type TCancelRequest = z.infer<typeof ZCancelRequest>;

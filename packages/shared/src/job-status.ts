import { z } from "zod";

/**
 * Where a job is in its lifecycle. `queued` and `active` are qualified by the job's `stage`;
 * `completed`, `failed` and `cancelled` are terminal.
 */
export const JOB_STATUSES = ["submitted", "queued", "active", "completed", "failed", "cancelled"] as const;
export const ZJobStatus = z.enum(JOB_STATUSES).meta({
  id: "JobStatus",
  description:
    "Where a job is: submitted, queued or active (qualified by its stage), or terminal (completed, failed, cancelled).",
});
export type TJobStatus = z.infer<typeof ZJobStatus>;

export const TERMINAL_STATUSES: readonly TJobStatus[] = ["completed", "failed", "cancelled"];

export function isTerminalStatus(status: TJobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * Why a job did not complete. Who caused the failure decides its kind (ARCHITECTURE.md,
 * "Failure kinds").
 * - `timeout`: a stage ran past its time budget (time inside the stage only).
 * - `sandbox`: the sandbox could not be created, or broke without the policy's doing (died while
 *   idle or during a handler's own step, an unmarked tool error).
 * - `inference`: the inference backend failed or was unreachable.
 * - `eval`: the evaluation itself broke (not: the answer was wrong — that is reward 0).
 * - `agent`: the policy's own fault (context overflow, killing its tools or the execution server,
 *   hitting a resource limit, crashing the sandbox during its own tool call). Trainable, with the
 *   handler's failure reward.
 * - `cancelled`: a caller cancelled the job, its group or its batch.
 */
export const FAILURE_KINDS = ["timeout", "sandbox", "inference", "eval", "agent", "cancelled"] as const;
export const ZFailureKind = z.enum(FAILURE_KINDS).meta({
  id: "FailureKind",
  description:
    "Why a job did not complete: timeout, sandbox, inference, eval (infrastructure, never trainable), agent (the policy's own fault, trainable) or cancelled.",
});
export type TFailureKind = z.infer<typeof ZFailureKind>;

/**
 * What more the engine knows of a failed job than its kind. A label refines its kind; it never
 * changes who caused the failure or whether it is trainable.
 * - `tampered` (kind `agent`): a grader's canary tests (tests whose outcome it knows, planted
 *   beside the graded ones in the same test process) reported a false outcome, so the policy's
 *   code interfered with the test run and the grade was voided: reward 0, trainable (the policy's
 *   doing). The job's `result` keeps the grader's report, which says which canary lied.
 * - `misconfigured` (kind `sandbox`): the job's own configuration failed, not the host — an MCP
 *   server its environment declares whose command does not exist, that exits before its
 *   handshake, or whose tool names clash with built-in ones (a stage failure with cause `caller`,
 *   `callerConfigFailure`). Reward null, not trainable, and never run again: any sandbox would
 *   fail the same way, so neither the engine nor a training step retries it.
 */
export const FAILURE_LABELS = ["tampered", "misconfigured"] as const;
export const ZFailureLabel = z.enum(FAILURE_LABELS).meta({
  id: "FailureLabel",
  description:
    "What more is known of a failed job than its kind: `tampered` (kind `agent`) = a grader's canary tests reported a false outcome, so the grade was voided (reward 0, trainable); `misconfigured` (kind `sandbox`) = the job's own configuration failed (e.g. an MCP server its environment declares could not start), so it is not retried (reward null, not trainable).",
});
export type TFailureLabel = z.infer<typeof ZFailureLabel>;

import {
  assertNever,
  nextStage,
  type TFailureKind,
  type TFailureLabel,
  type TJobStatus,
  type TStage,
  type TStageTimings,
  type TTurnReward,
} from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";
import { failureRewardOf } from "./failure-classifier";

/**
 * Everything that can happen to a job. The state machine of DESIGN.md:
 * submitted → queued(init) → active(init) → queued(run) → active(run) → queued(eval) →
 * active(eval) → completed, with failed(kind, stage) from any active stage and cancelled from
 * any non-terminal state.
 */
export type JobTransition =
  /** submitted → queued(init); active(stage) → queued(next stage). */
  | { type: "enqueue" }
  /** queued(stage) → active(stage). */
  | { type: "activate" }
  /** active(eval) → completed. */
  | { type: "complete"; reward: number; result: unknown; turnRewards?: readonly TTurnReward[] }
  /**
   * active(stage) → failed(kind, stage). `failureReward` is the handler's reward for the policy's
   * own failures; it is stored only when `kind` is `agent` (default 0), never for infrastructure,
   * and never for a `tampered` label (always 0). `label` is stored as `failure.label` (left out
   * when none); `result`, the handler's report of the failure, as the job's `result` (default null).
   */
  | {
      type: "fail";
      kind: Exclude<TFailureKind, "cancelled">;
      message: string;
      failureReward?: number;
      label?: TFailureLabel | null;
      result?: unknown;
    }
  /** any non-terminal → cancelled. */
  | { type: "cancel"; message: string }
  /**
   * Back to queued(init) after a crash of the process that ran it (resources are lost), or —
   * `preempted` — because higher-priority work took its slot (not counted as an attempt).
   */
  | { type: "restart"; preempted?: boolean };

export class InvalidTransitionError extends Error {
  override readonly name = "InvalidTransitionError";
}

/**
 * Trainable: completed jobs and the policy's own (`agent`) failures — what the policy caused
 * (bad tool calls, context overflow, killing its tools or the execution server, a resource limit,
 * a crash during its own tool call). Infrastructure failures (`sandbox`, `inference`, `eval`),
 * stage timeouts and cancels are not: they carry no reward. See ARCHITECTURE.md, "Failure kinds".
 */
export function isTrainable(status: TJobStatus, failureKind: TFailureKind | null): boolean | null {
  switch (status) {
    case "completed":
      return true;
    case "failed":
      return failureKind === "agent";
    case "cancelled":
      return false;
    case "submitted":
    case "queued":
    case "active":
      return null;
    default:
      return assertNever(status, "job status");
  }
}

/** Whether `transition` is allowed from the job's current status and stage. */
export function canTransition(job: Pick<JobRecord, "status" | "stage">, transition: JobTransition): boolean {
  const { status, stage } = job;
  switch (transition.type) {
    case "enqueue":
      return status === "submitted" || (status === "active" && stage !== null && nextStage(stage) !== null);
    case "activate":
      return status === "queued";
    case "complete":
      return status === "active" && stage === "eval";
    case "fail":
      return status === "active";
    case "cancel":
      return status === "submitted" || status === "queued" || status === "active";
    case "restart":
      return status === "submitted" || status === "queued" || status === "active";
    default:
      return assertNever(transition, "transition");
  }
}

/** Adds the time spent in the current state to the right timing field. */
function addElapsed(job: JobRecord, elapsedMs: number): TStageTimings {
  const timings = { ...job.timings };
  const ms = Math.max(0, elapsedMs);
  if (job.status === "queued") timings.queueMs += ms;
  if (job.status === "active" && job.stage !== null) {
    const key = `${job.stage}Ms` as const;
    timings[key] = (timings[key] ?? 0) + ms;
  }
  return timings;
}

/**
 * Applies `transition` to `job` and returns the new record (the input is not modified).
 * `stateSinceMs` is when the job entered its current state, so stage timings count time inside
 * each stage only and queue time separately.
 */
export function applyTransition(
  job: JobRecord,
  transition: JobTransition,
  at: { nowMs: number; stateSinceMs: number },
): JobRecord {
  if (!canTransition(job, transition)) {
    throw new InvalidTransitionError(`cannot ${transition.type} a job that is ${describeState(job)}`);
  }
  const timings = addElapsed(job, at.nowMs - at.stateSinceMs);
  const base = { ...job, timings, updatedAtMs: at.nowMs };
  switch (transition.type) {
    case "enqueue": {
      const stage: TStage =
        job.status === "submitted" || job.stage === null ? "init" : (nextStage(job.stage) as TStage);
      return { ...base, status: "queued", stage };
    }
    case "activate":
      return { ...base, status: "active" };
    case "complete":
      return {
        ...base,
        status: "completed",
        reward: transition.reward,
        // Stored only when the verifier gave some: absent reads as none.
        ...(transition.turnRewards && transition.turnRewards.length > 0
          ? { turnRewards: [...transition.turnRewards] }
          : {}),
        result: transition.result ?? null,
        trainable: true,
        finishedAtMs: at.nowMs,
      };
    case "fail": {
      const label = transition.label ?? null;
      return {
        ...base,
        status: "failed",
        failure: {
          kind: transition.kind,
          stage: job.stage ?? "init",
          message: transition.message,
          ...(label !== null ? { label } : {}),
        },
        reward: failureRewardOf(transition.kind, transition.failureReward, label),
        trainable: isTrainable("failed", transition.kind),
        result: transition.result ?? null,
        finishedAtMs: at.nowMs,
      };
    }
    case "cancel":
      return {
        ...base,
        status: "cancelled",
        stage: job.stage ?? "init",
        failure: { kind: "cancelled", stage: job.stage ?? "init", message: transition.message },
        reward: null,
        trainable: false,
        finishedAtMs: at.nowMs,
      };
    case "restart":
      return {
        ...base,
        status: "queued",
        stage: "init",
        attempts: transition.preempted ? job.attempts : job.attempts + 1,
      };
    default:
      return assertNever(transition, "transition");
  }
}

function describeState(job: Pick<JobRecord, "status" | "stage">): string {
  return job.stage === null ? job.status : `${job.status} (${job.stage})`;
}

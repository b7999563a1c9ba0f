import type { TSandboxEvent, TStage, TToolCall, TTurn } from "@raas/shared";
import type { JobRecord } from "./job-record.types";

export type Cleanup = () => void | Promise<void>;

/** What a stage may record about the trajectory while it runs. */
export interface TrajectoryRecorder {
  turn(turn: Omit<TTurn, "jobId" | "createdAtMs">): void;
  toolCall(call: Omit<TToolCall, "jobId" | "createdAtMs">): void;
  sandboxEvent(event: Omit<TSandboxEvent, "jobId">): void;
}

export interface StageContext<P> {
  readonly job: Readonly<JobRecord>;
  readonly payload: P;
  readonly stage: TStage;
  /** Aborts on cancel (reason `cancelled`) and on the stage timeout (reason `timeout`). */
  readonly signal: AbortSignal;
  /** Runs when this stage ends, on every path (success, failure, timeout, cancel). */
  defer(cleanup: Cleanup): void;
  /** Runs when the job reaches a terminal state, on every path. */
  deferToJobEnd(cleanup: Cleanup): void;
  readonly record: TrajectoryRecorder;
}

export interface RunContext<P, I> extends StageContext<P> {
  readonly init: I;
}

export interface EvalContext<P, I, R> extends RunContext<P, I> {
  readonly run: R;
}

export interface EvalOutcome {
  reward: number;
  /** Handler-defined detail stored on the job (e.g. FAIL_TO_PASS lists). */
  result?: unknown;
}

/** Parses a raw payload; throws (any error) with a readable message when it is invalid. */
export type PayloadParser<P> = (payload: unknown) => P;

/**
 * A task-type plug-in. Throw `StageFailure` to fail with a specific kind (`agent` when the policy
 * caused it: trainable, with `failureReward`); any other error is classified by stage
 * (INIT → sandbox, RUN → sandbox, EVAL → eval) and is never trainable.
 */
export interface TaskHandler<P = unknown, I = unknown, R = unknown> {
  readonly kind: string;
  readonly description?: string;
  /**
   * The reward stored with a job that fails as `agent` (the policy's own fault: it is trainable,
   * so it needs a reward). A finite number; default 0. Infrastructure failures never get one.
   */
  readonly failureReward?: number;
  readonly parsePayload: PayloadParser<P>;
  init(ctx: StageContext<P>): Promise<I>;
  run(ctx: RunContext<P, I>): Promise<R>;
  eval(ctx: EvalContext<P, I, R>): Promise<EvalOutcome>;
}

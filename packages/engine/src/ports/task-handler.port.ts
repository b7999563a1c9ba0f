import type { TSandboxEvent, TStage, TTeacherScore, TToolCall, TTurn, TTurnReward } from "@raas/shared";
import type { z } from "zod";
import type { AgentLoopRunner } from "../agent/agent-loop-runner.types";
import type { JobRecord } from "./job-record.types";
import type { SandboxReadOnlyBind } from "./sandbox-runtime.port";

export type Cleanup = () => void | Promise<void>;

/** What a stage may record about the trajectory while it runs. */
export interface TrajectoryRecorder {
  turn(turn: Omit<TTurn, "jobId" | "createdAtMs">): void;
  toolCall(call: Omit<TToolCall, "jobId" | "createdAtMs">): void;
  sandboxEvent(event: Omit<TSandboxEvent, "jobId">): void;
  /** The teacher's scores of the finished trajectory (or why there are none); once per attempt. */
  teacherScore?(score: Omit<TTeacherScore, "jobId" | "createdAtMs">): void;
}

export interface StageContext<P> {
  readonly job: Readonly<JobRecord>;
  readonly payload: P;
  readonly stage: TStage;
  /** Aborts on cancel (reason `cancelled`) and on the stage timeout (reason `timeout`). */
  readonly signal: AbortSignal;
  /**
   * Runs when this stage ends, on every path (success, failure, timeout, cancel). Given after
   * the stage ended or was aborted (a start that outlived a cancel), it runs at once.
   */
  defer(cleanup: Cleanup): void;
  /**
   * Runs when the job reaches a terminal state, on every path. Given after the stage ended or was
   * aborted, it runs at once: whoever started a sandbox closes it unless it was handed over.
   */
  deferToJobEnd(cleanup: Cleanup): void;
  readonly record: TrajectoryRecorder;
  /**
   * Host paths the sandboxes this stage starts mount read-only (`SandboxSpec.readOnlyBinds`): a
   * `harness` job's installed CLI and its runtime, set on the INIT it hands to its task's kind.
   * Default none.
   */
  readonly sandboxReadOnlyBinds?: readonly SandboxReadOnlyBind[];
}

export interface RunContext<P, I> extends StageContext<P> {
  readonly init: I;
}

export interface EvalContext<P, I, R> extends RunContext<P, I> {
  readonly run: R;
}

export interface EvalOutcome {
  /** The trajectory's scalar reward. */
  reward: number;
  /** Handler-defined detail stored on the job (e.g. FAIL_TO_PASS lists). */
  result?: unknown;
  /**
   * Per-turn rewards the verifier attached, stored on the job (`turnRewards`). Checked against
   * `ZTurnRewards`: a malformed list fails the job as `eval`, never silently dropped. A handler
   * checks each `turn` names a turn of the trajectory before returning.
   */
  turnRewards?: readonly TTurnReward[];
}

/**
 * A task-type plug-in, typed by its payload `P`, INIT output `I` and RUN output `R`. Throw
 * `stageFailure(kind, …)` to fail with a specific kind (`agent` when the policy caused it: trainable, with
 * `failureReward`); any other error is classified by stage (INIT → sandbox, RUN → sandbox,
 * EVAL → eval) and is never trainable. Register it as it is (`HandlerRegistry.register`) or erase
 * it with `defineHandler` to keep handlers of different kinds in one list.
 */
export interface TaskHandler<P, I, R> {
  readonly kind: string;
  readonly description?: string;
  /**
   * The reward stored with a job that fails as `agent` (the policy's own fault: it is trainable,
   * so it needs a reward). A finite number; default 0. Infrastructure failures never get one.
   */
  readonly failureReward?: number;
  /** The payload a job of this kind carries; a payload it rejects is a 400 at submit time. */
  readonly payloadSchema: z.ZodType<P>;
  /** The shape of `EvalOutcome.result` (documentation; not enforced). Default: any JSON value. */
  readonly resultSchema?: z.ZodType;
  /**
   * The image the job's sandboxes will run on (`SandboxSpec.image`), known before INIT: its queue
   * item carries it, so a worker holding the image unpacked is preferred. Undefined (or a throw:
   * INIT reports that) leaves the item without one. Default: none.
   */
  readonly imageOf?: (payload: P, job: Readonly<JobRecord>) => string | undefined;
  // Properties, not methods: a handler of one payload type is not silently a handler of another.
  readonly init: (ctx: StageContext<P>) => Promise<I>;
  readonly run: (ctx: RunContext<P, I>) => Promise<R>;
  /**
   * RUN with its agent played by `runner` instead of the built-in loop (a harness): the same
   * INIT before and EVAL after. Absent on kinds whose RUN is no agent's (e.g. `sleep`).
   */
  readonly runWithAgent?: (ctx: RunContext<P, I>, runner: AgentLoopRunner) => Promise<R>;
  readonly eval: (ctx: EvalContext<P, I, R>) => Promise<EvalOutcome>;
}

/**
 * A handler with its types erased (from `defineHandler`): what the registry keeps and the engine
 * calls. It parses every payload with the handler's own `payloadSchema` and hands RUN and EVAL
 * only the outputs its own INIT and RUN returned, so no value of the wrong type reaches the
 * typed handler inside.
 */
export interface AnyTaskHandler {
  readonly kind: string;
  readonly description?: string;
  readonly failureReward?: number;
  readonly payloadSchema: z.ZodType;
  readonly resultSchema?: z.ZodType;
  /**
   * The parsed payload; throws `VALIDATION_FAILED` listing the schema's issues (paths under `at`,
   * e.g. `["jobs", 3]` → `jobs[3].payload.question`) and the keys the payload accepts.
   */
  parsePayload(payload: unknown, at?: readonly PropertyKey[]): unknown;
  /** See `TaskHandler.imageOf`. */
  imageOf?(payload: unknown, job: Readonly<JobRecord>): string | undefined;
  init(ctx: StageContext<unknown>): Promise<unknown>;
  run(ctx: RunContext<unknown, unknown>): Promise<unknown>;
  /** RUN with `runner` playing the agent (see `TaskHandler.runWithAgent`); absent when the kind has none. */
  runWithAgent?(ctx: RunContext<unknown, unknown>, runner: AgentLoopRunner): Promise<unknown>;
  eval(ctx: EvalContext<unknown, unknown, unknown>): Promise<EvalOutcome>;
}

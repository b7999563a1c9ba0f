import { abortFailure, assertNever, failureOf, formatIssues, type TStage, ZTurnRewards } from "@raas/shared";
import type { EngineLogger } from "../engine.types";
import type { Clock } from "../ports/clock.port";
import type {
  AnyTaskHandler,
  Cleanup,
  EvalOutcome,
  StageContext,
  TrajectoryRecorder,
} from "../ports/task-handler.port";
import { whenAborted } from "../util/abort";
import { type ClassifiedFailure, classifyFailure } from "./failure-classifier";
import { type LiveJob, runCleanups } from "./live-job";
import { type StageClockHold, startBudgetTimer } from "./stage-clock-hold";

export type StageOutcome =
  | { type: "ok"; value: unknown }
  | { type: "failed"; failure: ClassifiedFailure }
  | { type: "shutdown" }
  /** Aborted for higher-priority work: re-queued by the caller, not a failure. */
  | { type: "preempted" };

export interface StageRunInput {
  live: LiveJob;
  stage: TStage;
  handler: AnyTaskHandler;
  timeoutMs: number;
  clock: Clock;
  record: TrajectoryRecorder;
  logger?: EngineLogger;
  /** Held while generation is paused for a weight sync; RUN's budget does not run meanwhile. */
  clockHold?: StageClockHold;
}

function invoke(
  handler: AnyTaskHandler,
  stage: TStage,
  ctx: StageContext<unknown>,
  live: LiveJob,
): Promise<unknown> {
  switch (stage) {
    case "init":
      return handler.init(ctx);
    case "run":
      return handler.run({ ...ctx, init: live.outputs.init });
    case "eval":
      return handler.eval({ ...ctx, init: live.outputs.init, run: live.outputs.run });
    default:
      return assertNever(stage, "stage");
  }
}

/** Checks an EVAL result so a broken handler fails as `eval`, never as a silent reward. */
function checkEvalOutcome(value: unknown): EvalOutcome {
  const outcome = value as Partial<EvalOutcome> | null;
  if (!outcome || typeof outcome.reward !== "number" || !Number.isFinite(outcome.reward)) {
    throw new Error(`handler returned no finite reward from eval (got ${JSON.stringify(value)})`);
  }
  if (outcome.turnRewards === undefined) return { reward: outcome.reward, result: outcome.result ?? null };
  const turnRewards = ZTurnRewards.safeParse(outcome.turnRewards);
  if (!turnRewards.success) {
    throw new Error(`handler returned malformed turn rewards: ${formatIssues(turnRewards.error.issues)}`);
  }
  return { reward: outcome.reward, result: outcome.result ?? null, turnRewards: turnRewards.data };
}

/**
 * Runs one stage of one job under its own AbortController: the stage's time budget starts now
 * (queue time excluded), cancel reaches the handler through `ctx.signal`, and the stage's
 * cleanups run on every path. An aborted stage is not waited for: the engine moves on and the
 * handler's late result is ignored; a cleanup it hands over late (`defer`, `deferToJobEnd` after
 * the stage ended — a sandbox whose start outlived a cancel) runs at once.
 */
export async function runStage(input: StageRunInput): Promise<StageOutcome> {
  const { live, stage, handler, timeoutMs, clock } = input;
  const controller = new AbortController();
  live.controller = controller;
  // RUN waits on generation: a weight-sync pause holds its clock (the policy's pause, not the job's time).
  const cancelTimer = startBudgetTimer(
    clock,
    timeoutMs,
    () => controller.abort(abortFailure("timeout", `${stage} timed out after ${timeoutMs} ms`)),
    stage === "run" ? (input.clockHold ?? null) : null,
  );
  const stageCleanups: Cleanup[] = [];
  // Once the stage is over (or aborted) nobody will run what the handler hands over from now on:
  // a sandbox whose start outlived a cancel is closed at once by whoever started it.
  let isOver = false;
  const handOver = (cleanups: Cleanup[], cleanup: Cleanup) => {
    if (isOver || controller.signal.aborted) runLate(cleanup, live, stage, input.logger);
    else cleanups.push(cleanup);
  };
  const ctx: StageContext<unknown> = {
    job: live.record,
    payload: live.payload,
    stage,
    signal: controller.signal,
    defer: (cleanup) => handOver(stageCleanups, cleanup),
    deferToJobEnd: (cleanup) => handOver(live.jobCleanups, cleanup),
    record: input.record,
  };

  let outcome: StageOutcome;
  try {
    const work = Promise.resolve().then(() => invoke(handler, stage, ctx, live));
    work.catch(() => undefined); // a late rejection after an abort is expected, not unhandled
    const aborted = whenAborted(controller.signal).then(() => {
      throw controller.signal.reason;
    });
    let value = await Promise.race([work, aborted]);
    // An abort that landed as the work returned still wins: whoever aborted was told it took.
    if (controller.signal.aborted) throw controller.signal.reason;
    if (stage === "eval") value = checkEvalOutcome(value);
    outcome = { type: "ok", value };
  } catch (error) {
    const reason = failureOf(controller.signal.reason);
    const abort = reason?.kind === "aborted" ? reason.abort : null;
    if (abort === "shutdown") outcome = { type: "shutdown" };
    else if (abort === "preempted") outcome = { type: "preempted" };
    else
      outcome = {
        type: "failed",
        failure: classifyFailure({ stage, error, signal: controller.signal, timeoutMs }),
      };
  } finally {
    isOver = true;
    cancelTimer();
    live.controller = null;
    const errors = await runCleanups(stageCleanups);
    for (const error of errors) {
      input.logger?.warn({ jobId: live.record.id, stage, err: String(error) }, "stage cleanup failed");
    }
  }
  return outcome;
}

/** A cleanup handed over after its stage ended: run now (its owner is gone), a failure logged. */
function runLate(cleanup: Cleanup, live: LiveJob, stage: TStage, logger: EngineLogger | undefined): void {
  void runCleanups([cleanup]).then((errors) => {
    for (const error of errors) {
      logger?.warn({ jobId: live.record.id, stage, err: String(error) }, "late stage cleanup failed");
    }
  });
}

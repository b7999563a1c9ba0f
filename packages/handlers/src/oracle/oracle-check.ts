import {
  defineHandler,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  type SandboxRuntime,
  type ToolServerProvider,
} from "@raas/engine";
import { isTerminalStatus, requestFailure, type TJob } from "@raas/shared";
import { createHarborHandler } from "../harbor/harbor-handler";
import { createJudgeHandlerFactory } from "../judge/judge-handler";
import type { JudgeModel } from "../judge/judge-model.types";
import { createRewardFnHandler } from "../reward-fn/reward-fn-handler";
import type { EnvironmentKind, EnvironmentTask, LoadedEnvironment } from "./environment-source";
import { createOraclePolicy, ORACLE_TASK_PREFIX, oracleChatFormat } from "./oracle-policy";
import { judgeOracleCheck, type OracleJobOutcome, type OracleVerdict } from "./oracle-verdict";

/** One row of the oracle table. */
interface OracleCheckRow {
  task: string;
  /** The reference solution's reward; null when it earned none (failed, skipped). */
  oracleReward: number | null;
  /** Doing nothing's reward; null when it earned none. */
  noopReward: number | null;
  verdict: OracleVerdict;
  /** Why the verdict is not `pass` (empty when it is). */
  reasons: string[];
  /** Wall time of the task's two jobs, from the first's creation to the last's end, in seconds. */
  seconds: number;
}

/** The outcome of an environment's oracle check. */
export interface OracleCheckReport {
  environment: string;
  kind: EnvironmentKind;
  rows: OracleCheckRow[];
  passed: number;
  failed: number;
  skipped: number;
  /** Wall time of the whole check, in seconds. */
  seconds: number;
}

export interface OracleCheckOptions {
  environment: LoadedEnvironment;
  /** Where the tasks' sandboxes run (bubblewrap in practice). */
  sandboxRuntime: SandboxRuntime;
  /**
   * The judge model grading a `judge` environment (backends named for judging). Required for
   * one: without it the check throws a `VALIDATION_FAILED` failure before running anything.
   */
  judge?: JudgeModel;
  /**
   * Starts the MCP servers an environment declares (`[mcp]`); without it a task that declares
   * servers fails its check (sandbox), saying so.
   */
  toolServers?: ToolServerProvider;
  /** Jobs in each stage at once. Default 4. */
  concurrency?: number;
  /** Called each time a job ends: jobs ended so far of all, and the failed verdicts so far. */
  onProgress?: (progress: { finished: number; total: number; failing: number }) => void;
  /** Longest the whole check may take, in ms. Default 3_600_000. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const outcomeOf = (job: TJob | undefined): OracleJobOutcome | null =>
  job === undefined
    ? null
    : {
        status: job.status,
        reward: job.reward,
        failure: job.failure ? { kind: job.failure.kind, message: job.failure.message } : null,
      };

/** Why a task cannot be checked, or null. */
function skipReasonOf(task: EnvironmentTask, kind: EnvironmentKind): string | null {
  if (task.incompatibility !== null) return task.incompatibility;
  if (task.oracle === null)
    return kind === "judge"
      ? "no reference answer (`reference` in its dataset row)"
      : "no reference solution (solution/solve.sh)";
  return null;
}

/**
 * Runs each task's reference solution (expecting full reward, or a judge environment's pass
 * threshold) and a no-op (expecting none)
 * through the environment's own handler on real sandboxes: INIT, RUN with the oracle policy
 * playing the solution, EVAL with the task's verifier, in an engine of its own (memory store and
 * queue; no services). Returns a row per task, in the environment's order.
 */
export async function runOracleCheck(options: OracleCheckOptions): Promise<OracleCheckReport> {
  const { environment } = options;
  if (environment.kind === "judge" && options.judge === undefined)
    throw requestFailure(
      "VALIDATION_FAILED",
      `${environment.name} is a judge environment: its oracle check needs a judge model to grade the answers (a judge backend)`,
    );
  const startedAtMs = Date.now();
  const policy = createOraclePolicy();
  const deps = {
    sandboxRuntime: options.sandboxRuntime,
    inference: policy.inference,
    chatFormat: oracleChatFormat,
    ...(options.toolServers ? { toolServers: options.toolServers } : {}),
  };
  const concurrency = options.concurrency ?? 4;
  const engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry()
      .register(defineHandler(createHarborHandler(deps)))
      .register(defineHandler(createRewardFnHandler(deps)))
      .register(defineHandler(createJudgeHandlerFactory(options.judge ?? null)(deps))),
    inference: policy.inference,
    pools: { init: { concurrency }, run: { concurrency }, eval: { concurrency } },
  });
  await engine.start();
  try {
    const runnable = environment.tasks.filter((task) => skipReasonOf(task, environment.kind) === null);
    const requests = runnable.flatMap((task, index) =>
      (["oracle", "noop"] as const).map((variant) => {
        const taskId = `${ORACLE_TASK_PREFIX}${index}-${variant}`;
        policy.script(taskId, variant === "oracle" ? (task.oracle ?? []) : task.noop);
        return { ...task.request, payload: { ...task.request.payload, taskId } };
      }),
    );
    const total = requests.length;
    let finished = 0;
    let failing = 0;
    const ended = new Map<string, TJob>();
    const unsubscribe = engine.subscribe((event) => {
      const { job } = event;
      if (!isTerminalStatus(job.status) || ended.has(job.id)) return;
      ended.set(job.id, job);
      finished += 1;
      if (job.status !== "completed") failing += 1;
      options.onProgress?.({ finished, total, failing });
    });
    const submitted = requests.length > 0 ? await engine.submitJobs(requests) : [];
    const { jobs } = await engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: options.timeoutMs ?? 3_600_000, ...(options.signal ? { signal: options.signal } : {}) },
    );
    unsubscribe();
    const byTaskId = new Map(jobs.map((job) => [(job.payload as { taskId: string }).taskId, job]));
    let index = 0;
    const rows = environment.tasks.map((task): OracleCheckRow => {
      const skipReason = skipReasonOf(task, environment.kind);
      if (skipReason !== null) {
        const { verdict, reasons } = judgeOracleCheck({ oracle: null, noop: null, skipReason });
        return { task: task.id, oracleReward: null, noopReward: null, verdict, reasons, seconds: 0 };
      }
      const oracle = byTaskId.get(`${ORACLE_TASK_PREFIX}${index}-oracle`);
      const noop = byTaskId.get(`${ORACLE_TASK_PREFIX}${index}-noop`);
      index += 1;
      const { verdict, reasons } = judgeOracleCheck({
        oracle: outcomeOf(oracle),
        noop: outcomeOf(noop),
        oracleMinReward: environment.oracleMinReward,
      });
      const both = [oracle, noop].filter((job): job is TJob => job !== undefined);
      const first = Math.min(...both.map((job) => job.createdAtMs));
      const last = Math.max(...both.map((job) => job.finishedAtMs ?? job.updatedAtMs));
      return {
        task: task.id,
        oracleReward: oracle?.reward ?? null,
        noopReward: noop?.reward ?? null,
        verdict,
        reasons,
        seconds: both.length > 0 ? (last - first) / 1000 : 0,
      };
    });
    const count = (verdict: OracleVerdict) => rows.filter((row) => row.verdict === verdict).length;
    return {
      environment: environment.name,
      kind: environment.kind,
      rows,
      passed: count("pass"),
      failed: count("fail"),
      skipped: count("skipped"),
      seconds: (Date.now() - startedAtMs) / 1000,
    };
  } finally {
    await engine.stop({ graceMs: 1_000 });
  }
}

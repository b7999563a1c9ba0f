import { callerConfigFailure, policyFailure, stageFailure, ZFailureLabel } from "@raas/shared";
import { z } from "zod";
import type { Clock } from "../ports/clock.port";
import type { TaskHandler } from "../ports/task-handler.port";
import { sleep } from "../util/abort";

const ZFailSpec = z
  .object({
    rate: z.number().min(0).max(1).describe("Probability (0..1) that this stage fails."),
    kind: z
      .enum(["sandbox", "inference", "eval", "agent"])
      .default("sandbox")
      .describe("The failure kind injected. Default `sandbox`."),
    label: ZFailureLabel.optional().describe(
      "The failure label injected with it: `tampered` (kind `agent` only) fails the job as a grade voided by lying canaries (reward 0, trainable); `misconfigured` (kind `sandbox` only) as the job's own configuration failing (reward null, never retried). Default none.",
    ),
  })
  .strict()
  .refine((spec) => spec.label !== "tampered" || spec.kind === "agent", {
    message: "the failure label `tampered` needs kind `agent`",
    path: ["label"],
  })
  .refine((spec) => spec.label !== "misconfigured" || spec.kind === "sandbox", {
    message: "the failure label `misconfigured` needs kind `sandbox`",
    path: ["label"],
  });

const ZStageMs = (stage: string, defaultMs: number) =>
  z
    .number()
    .min(0)
    .max(3_600_000)
    .default(defaultMs)
    .describe(`How long ${stage} sleeps, in ms (0 to 3_600_000). Default ${defaultMs}.`);

/** Payload of the diagnostic `sleep` handler: stage durations in ms, jitter, failure injection. */
const ZSleepPayload = z
  .object({
    initMs: ZStageMs("INIT", 50),
    runMs: ZStageMs("RUN", 200),
    evalMs: ZStageMs("EVAL", 100),
    jitter: z
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe("Each duration is scaled by a random factor in [1 - jitter, 1 + jitter]. Default 0."),
    fail: z
      .object({
        init: ZFailSpec.describe("Failure injected in INIT."),
        run: ZFailSpec.describe("Failure injected in RUN."),
        eval: ZFailSpec.describe("Failure injected in EVAL."),
      })
      .partial()
      .strict()
      .default({})
      .describe("Failures to inject per stage. Default none."),
    reward: z
      .number()
      .optional()
      .describe("Reward reported on success; default: 1 with probability `successRate`, else 0."),
    successRate: z
      .number()
      .min(0)
      .max(1)
      .default(1)
      .describe("Probability of reward 1 when `reward` is not given. Default 1."),
    ignoreAbort: z
      .boolean()
      .default(false)
      .describe(
        "Ignore the abort signal (tests that the engine does not wait for a stuck handler). Default false.",
      ),
  })
  .strict()
  .meta({ description: "Diagnostic job: sleeps per stage, optional jitter and injected failures." });
export type TSleepPayload = z.infer<typeof ZSleepPayload>;

/** Result of the `sleep` handler: the fake sandbox's name and the steps run. */
const ZSleepResult = z
  .object({
    sandbox: z.string().describe("The name of the (pretend) sandbox INIT made."),
    steps: z.number().int().describe("Steps RUN took (always 1)."),
  })
  .meta({ description: "Result of a `sleep` job." });

export interface SleepHandlerOptions {
  /** Random source in [0, 1); inject a seeded one for reproducible runs. Default Math.random. */
  random?: () => number;
  /** Reward of a job whose injected failure is `agent` (the handler's `failureReward`). Default 0. */
  failureReward?: number;
  /** Called for every stage start, so tests can observe cleanups and overlap. */
  onStage?: (event: { jobId: string; stage: "init" | "run" | "eval"; phase: "start" | "cleanup" }) => void;
  /** Time source the stages sleep on; tests pass the engine's manual clock. Default real timers. */
  clock?: Clock;
}

/**
 * A diagnostic handler with no side effects: each stage sleeps for its configured time, may fail
 * with a configured kind, and registers a cleanup (like closing a sandbox) so smoke tests, load
 * tests and benchmarks exercise the whole lifecycle before real handlers exist.
 */
export function createSleepHandler(
  options: SleepHandlerOptions = {},
): TaskHandler<TSleepPayload, { sandbox: string }, { steps: number }> {
  const random = options.random ?? Math.random;
  const duration = (ms: number, jitter: number) => ms * (1 - jitter + 2 * jitter * random());
  const stage = async (
    ctx: {
      job: { id: string };
      payload: TSleepPayload;
      signal: AbortSignal;
      defer: (fn: () => void) => void;
    },
    name: "init" | "run" | "eval",
  ) => {
    options.onStage?.({ jobId: ctx.job.id, stage: name, phase: "start" });
    ctx.defer(() => options.onStage?.({ jobId: ctx.job.id, stage: name, phase: "cleanup" }));
    const { payload } = ctx;
    const ms = duration(payload[`${name}Ms`], payload.jitter);
    await sleep(ms, payload.ignoreAbort ? undefined : ctx.signal, options.clock);
    const fail = payload.fail[name];
    if (fail && random() < fail.rate) {
      if (fail.label === undefined) throw stageFailure(fail.kind, `injected ${fail.kind} failure in ${name}`);
      if (fail.label === "misconfigured")
        throw callerConfigFailure(`injected misconfigured failure in ${name}`, {
          result: { injected: fail.label, stage: name },
        });
      throw policyFailure(`injected ${fail.label} failure in ${name}`, {
        label: fail.label,
        result: { injected: fail.label, stage: name },
      });
    }
  };
  return {
    kind: "sleep",
    description: "Diagnostic: sleeps per stage, optional jitter and injected failures.",
    failureReward: options.failureReward,
    payloadSchema: ZSleepPayload,
    resultSchema: ZSleepResult,
    async init(ctx) {
      await stage(ctx, "init");
      return { sandbox: `sleep-${ctx.job.id}` };
    },
    async run(ctx) {
      await stage(ctx, "run");
      return { steps: 1 };
    },
    async eval(ctx) {
      await stage(ctx, "eval");
      const reward = ctx.payload.reward ?? (random() < ctx.payload.successRate ? 1 : 0);
      return { reward, result: { sandbox: ctx.init.sandbox, steps: ctx.run.steps } };
    },
  };
}

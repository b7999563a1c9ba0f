import type { BenchmarkRunStatus } from "@raas/engine";
import { findNulCharacter, hasControlCharacter } from "@raas/shared";
import { z } from "zod";

/** Statuses of a benchmark run (the engine's `BenchmarkRunStatus`). */
const BENCHMARK_RUN_STATUSES = [
  "running",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly BenchmarkRunStatus[];
export const ZBenchmarkRunStatus = z
  .enum(BENCHMARK_RUN_STATUSES, { error: `status must be one of ${BENCHMARK_RUN_STATUSES.join(", ")}` })
  .describe("The run's status: running, completed, failed or cancelled.");

/** The statuses a run can be finished with. */
export const ZFinishedRunStatus = z
  .enum(["completed", "failed", "cancelled"], { error: "status must be one of completed, failed, cancelled" })
  .describe("How the run ended: completed, failed or cancelled.");

/** A run id: letters, digits and `_ . : @ -`, at most 200 characters (it appears in URLs). */
export const ZBenchmarkRunId = z
  .string({ error: "expected a benchmark run id (string)" })
  .trim()
  .regex(/^[A-Za-z0-9][\w.:@-]{0,199}$/, {
    error: "a benchmark run id is 1-200 letters, digits or _ . : @ - and starts with a letter or digit",
  })
  .describe("A run id: 1-200 letters, digits or `_ . : @ -`, starting with a letter or digit.");

/** Model, dataset and split labels, e.g. `Qwen/Qwen3-8B`, `swe-bench-verified`, `test`. */
export const ZBenchmarkLabel = (what: string) =>
  z
    .string({ error: `expected ${what} (string)` })
    .trim()
    .min(1, { error: `${what} may not be empty` })
    .max(200, { error: `${what} is longer than 200 characters` })
    .refine((value) => !hasControlCharacter(value), { error: `${what} may not contain control characters` });

/** Milliseconds since the epoch; default: the server's clock. */
export const ZEpochMs = z
  .number({ error: "expected milliseconds since the epoch (number)" })
  .int({ error: "expected whole milliseconds since the epoch" })
  .min(0)
  .max(8_640_000_000_000_000)
  .describe("Milliseconds since the Unix epoch.");

/** Test → outcome (`PASSED`, `FAILED`, …), e.g. `{ "tests/test_x.py::test_y": "PASSED" }`. */
export const ZTestOutcomes = z
  .record(z.string().max(2_000), z.string().max(100))
  .superRefine((value, ctx) => {
    const path = findNulCharacter(value);
    if (path) ctx.addIssue({ code: "custom", path, message: "must not contain the NUL character (\\u0000)" });
  })
  .describe('Test id → outcome (`PASSED`, `FAILED`, …), e.g. `{ "tests/test_x.py::test_y": "PASSED" }`.');

const ZJsonObject = z.record(z.string(), z.unknown());

/** One stored benchmark run with its result counts. */
export const ZBenchmarkRunView = z
  .object({
    id: z.string().describe("The run's id."),
    model: z.string().describe("The evaluated model, e.g. `Qwen/Qwen3-8B`."),
    dataset: z.string().describe("The dataset, e.g. `swe-bench-verified`."),
    split: z.string().nullable().describe("The dataset's split, or null."),
    status: z.string().describe("running, completed, failed or cancelled."),
    config: ZJsonObject.nullable().describe("Evaluation settings stored with the run, or null."),
    totalCount: z.number().int().describe("Instances with a stored result."),
    resolvedCount: z.number().int().describe("Of those, instances resolved."),
    rewardCount: z
      .number()
      .int()
      .describe(
        "Of those, results with a numeric `detail.reward` (an environment run's graded tasks; 0 for SWE-bench runs).",
      ),
    meanReward: z.number().nullable().describe("The mean of those rewards, or null when no result has one."),
    createdAtMs: z.number().describe("When the run was created, ms since the Unix epoch."),
    finishedAtMs: z.number().nullable().describe("When it was finished, or null while running."),
  })
  .meta({ id: "BenchmarkRun", description: "One benchmark run with its result counts." });

/** The outcome of one instance of a run. */
export const ZBenchmarkResultView = z
  .object({
    runId: z.string().describe("The run it belongs to."),
    instanceId: z.string().describe("The dataset's instance id, e.g. `astropy__astropy-12907`."),
    jobId: z.string().nullable().describe("The rollout job that produced it, or null."),
    resolved: z.boolean().describe("Whether the instance was resolved."),
    failToPass: ZTestOutcomes.nullable().describe(
      "Outcome of each FAIL_TO_PASS test, or null when not graded.",
    ),
    passToPass: ZTestOutcomes.nullable().describe(
      "Outcome of each PASS_TO_PASS test, or null when not graded.",
    ),
    detail: ZJsonObject.nullable().describe(
      "Evaluator detail, e.g. `{ emptyPatch, failedApplyPatch, testTimeout, error }` for SWE-bench; or null.",
    ),
    createdAtMs: z.number().describe("When the result was stored, ms since the Unix epoch."),
  })
  .meta({ id: "BenchmarkResult", description: "The outcome of one instance of a run." });

/** Input of the procedures that read or change one run. */
export const ZBenchmarkRunIdRequest = z
  .object({ runId: ZBenchmarkRunId })
  .strict()
  .meta({ description: "The run to read or change." });

/** Output of the procedures that return one run. */
export const ZBenchmarkRunResponse = z.object({ run: ZBenchmarkRunView }).meta({ description: "The run." });

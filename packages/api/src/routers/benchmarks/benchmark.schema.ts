import type { BenchmarkRunStatus } from "@raas/engine";
import { z } from "zod";

/** Statuses of a benchmark run (the engine's `BenchmarkRunStatus`). */
export const BENCHMARK_RUN_STATUSES = [
  "running",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly BenchmarkRunStatus[];
export const ZBenchmarkRunStatus = z.enum(BENCHMARK_RUN_STATUSES, {
  error: `status must be one of ${BENCHMARK_RUN_STATUSES.join(", ")}`,
});

/** The statuses a run can be finished with. */
export const ZFinishedRunStatus = z.enum(["completed", "failed", "cancelled"], {
  error: "status must be one of completed, failed, cancelled",
});

/** A run id: letters, digits and `_ . : @ -`, at most 200 characters (it appears in URLs). */
export const ZBenchmarkRunId = z
  .string({ error: "expected a benchmark run id (string)" })
  .trim()
  .regex(/^[A-Za-z0-9][\w.:@-]{0,199}$/, {
    error: "a benchmark run id is 1-200 letters, digits or _ . : @ - and starts with a letter or digit",
  });

/** Model, dataset and split labels, e.g. `Qwen/Qwen3-8B`, `swe-bench-verified`, `test`. */
export const ZBenchmarkLabel = (what: string) =>
  z
    .string({ error: `expected ${what} (string)` })
    .trim()
    .min(1, { error: `${what} may not be empty` })
    .max(200, { error: `${what} is longer than 200 characters` });

/** Milliseconds since the epoch; default: the server's clock. */
export const ZEpochMs = z
  .number({ error: "expected milliseconds since the epoch (number)" })
  .int({ error: "expected whole milliseconds since the epoch" })
  .min(0)
  .max(8_640_000_000_000_000);

/** Test → outcome (`PASSED`, `FAILED`, …), e.g. `{ "tests/test_x.py::test_y": "PASSED" }`. */
export const ZTestOutcomes = z.record(z.string().max(2_000), z.string().max(100));

const ZJsonObject = z.record(z.string(), z.unknown());

/** One stored benchmark run with its result counts. */
export const ZBenchmarkRunView = z.object({
  id: z.string(),
  model: z.string(),
  dataset: z.string(),
  split: z.string().nullable(),
  status: z.string(),
  config: ZJsonObject.nullable(),
  /** Instances with a stored result. */
  totalCount: z.number().int(),
  resolvedCount: z.number().int(),
  createdAtMs: z.number(),
  finishedAtMs: z.number().nullable(),
});
export type TBenchmarkRunView = z.infer<typeof ZBenchmarkRunView>;

/** The outcome of one instance of a run. */
export const ZBenchmarkResultView = z.object({
  runId: z.string(),
  instanceId: z.string(),
  /** The rollout job that produced it, when there was one. */
  jobId: z.string().nullable(),
  resolved: z.boolean(),
  failToPass: ZTestOutcomes.nullable(),
  passToPass: ZTestOutcomes.nullable(),
  /** Evaluator detail, e.g. `{ emptyPatch, failedApplyPatch, testTimeout, error }` for SWE-bench. */
  detail: ZJsonObject.nullable(),
  createdAtMs: z.number(),
});
export type TBenchmarkResultView = z.infer<typeof ZBenchmarkResultView>;

/** Input of the procedures that read or change one run. */
export const ZBenchmarkRunIdRequest = z.object({ runId: ZBenchmarkRunId }).strict();

/** Output of the procedures that return one run. */
export const ZBenchmarkRunResponse = z.object({ run: ZBenchmarkRunView });

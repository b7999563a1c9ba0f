import { hasControlCharacter, ZId, zJsonObjectWithoutNul } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { ZBenchmarkRunId, ZBenchmarkRunResponse, ZEpochMs, ZTestOutcomes } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

/** Most results in one call; send bigger runs in chunks. */
const MAX_RESULTS_PER_CALL = 1_000;

const ZBenchmarkResultInput = z
  .object({
    instanceId: z
      .string()
      .trim()
      .min(1, { error: "may not be empty" })
      .max(300)
      .refine((value) => !hasControlCharacter(value), { error: "may not contain control characters" })
      .describe("The dataset's instance id, e.g. `astropy__astropy-12907`."),
    jobId: ZId.nullable().default(null).describe("The rollout job that produced it. Default null."),
    resolved: z.boolean({ error: "expected true or false" }).describe("Whether the instance was resolved."),
    failToPass: ZTestOutcomes.nullable()
      .default(null)
      .describe("Outcome of each FAIL_TO_PASS test. Default null (not graded)."),
    passToPass: ZTestOutcomes.nullable()
      .default(null)
      .describe("Outcome of each PASS_TO_PASS test. Default null (not graded)."),
    detail: zJsonObjectWithoutNul()
      .nullable()
      .default(null)
      .describe("Evaluator detail (empty patch, patch failed, timeout, error). Default null."),
    createdAtMs: ZEpochMs.optional().describe("When it was graded. Default: now, by the server's clock."),
  })
  .strict()
  .meta({ description: "The outcome of one instance." });

const ZRecordBenchmarkResultsRequest = z
  .object({
    runId: ZBenchmarkRunId,
    results: z
      .array(ZBenchmarkResultInput)
      .min(1, { error: "send at least one result" })
      .max(MAX_RESULTS_PER_CALL, {
        error: `at most ${MAX_RESULTS_PER_CALL} results per call; send the rest in another call`,
      })
      .superRefine((results, ctx) => {
        const seen = new Set<string>();
        for (const [index, result] of results.entries()) {
          if (seen.has(result.instanceId)) {
            ctx.addIssue({
              code: "custom",
              path: [index, "instanceId"],
              message: `instance "${result.instanceId}" is listed twice in one call`,
            });
          }
          seen.add(result.instanceId);
        }
      })
      .describe(
        `Per-instance results, 1 to ${MAX_RESULTS_PER_CALL}; a result already stored for an instance is replaced.`,
      ),
  })
  .strict()
  .meta({ description: "Results to store for a run." });
/** The run with its refreshed total and resolved counts. */
const ZRecordBenchmarkResultsResponse = ZBenchmarkRunResponse;

/** Stores per-instance results of a run (replacing earlier ones of the same instances). Trainer or admin. */
export const recordResults = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/benchmarks/{runId}/results",
      operationId: "recordBenchmarkResults",
      summary:
        "Store per-instance results of a run (at most 1000 per call; an instance's earlier result is replaced) (trainer).",
      description:
        "Results are stored per instance id; sending an instance again replaces its result (a resumed evaluation). Answers the run with refreshed counts. 404 for an unknown run; 503 when the server has no benchmark store.",
      errors: ["UNAVAILABLE"],
      example: {
        results: [
          {
            instanceId: "astropy__astropy-12907",
            resolved: true,
            failToPass: { "astropy/modeling/tests/test_separable.py::test_separable": "PASSED" },
          },
        ],
      },
    },
  })
  .input(ZRecordBenchmarkResultsRequest)
  .output(ZRecordBenchmarkResultsResponse)
  .mutation(async ({ ctx, input }) => {
    const store = requireBenchmarks(ctx);
    await requireRun(store, input.runId);
    const now = Date.now();
    await store.recordResults(
      input.runId,
      input.results.map(({ createdAtMs, ...result }) => ({ ...result, createdAtMs: createdAtMs ?? now })),
    );
    const run = await requireRun(store, input.runId);
    ctx.logger.info(
      {
        runId: input.runId,
        recorded: input.results.length,
        total: run.totalCount,
        resolved: run.resolvedCount,
      },
      "benchmark results recorded",
    );
    return { run };
  });

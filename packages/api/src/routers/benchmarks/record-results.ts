import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { ZBenchmarkRunId, ZBenchmarkRunResponse, ZEpochMs, ZTestOutcomes } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

/** Most results in one call; send bigger runs in chunks. */
export const MAX_RESULTS_PER_CALL = 1_000;

const ZBenchmarkResultInput = z
  .object({
    /** The dataset's instance id, e.g. `astropy__astropy-12907`. */
    instanceId: z.string().trim().min(1, { error: "may not be empty" }).max(300),
    /** The rollout job that produced it. Default null. */
    jobId: z.string().max(200).nullable().default(null),
    resolved: z.boolean({ error: "expected true or false" }),
    /** Outcome of each FAIL_TO_PASS test. Default null (not graded). */
    failToPass: ZTestOutcomes.nullable().default(null),
    /** Outcome of each PASS_TO_PASS test. Default null (not graded). */
    passToPass: ZTestOutcomes.nullable().default(null),
    /** Evaluator detail (empty patch, patch failed, timeout, error). Default null. */
    detail: z.record(z.string(), z.unknown()).nullable().default(null),
    /** Default: now, by the server's clock. */
    createdAtMs: ZEpochMs.optional(),
  })
  .strict();

export const ZRecordBenchmarkResultsRequest = z
  .object({
    runId: ZBenchmarkRunId,
    /** Per-instance results; a result already stored for an instance is replaced. */
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
      }),
  })
  .strict();
/** The run with its refreshed total and resolved counts. */
export const ZRecordBenchmarkResultsResponse = ZBenchmarkRunResponse;

/** Stores per-instance results of a run (replacing earlier ones of the same instances). Trainer or admin. */
export const recordResults = trainerProcedure
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

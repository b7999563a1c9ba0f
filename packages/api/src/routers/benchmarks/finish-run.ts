import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { ZBenchmarkRunId, ZBenchmarkRunResponse, ZEpochMs, ZFinishedRunStatus } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

const ZFinishBenchmarkRunRequest = z
  .object({
    runId: ZBenchmarkRunId,
    status: ZFinishedRunStatus,
    finishedAtMs: ZEpochMs.optional().describe("Finish time. Default: now, by the server's clock."),
  })
  .strict()
  .meta({ description: "The run to finish and how it ended." });
const ZFinishBenchmarkRunResponse = ZBenchmarkRunResponse;

/**
 * Marks a run completed, failed or cancelled. Finishing a finished run again (a resumed
 * evaluation) overwrites its status and finish time. Trainer or admin.
 */
export const finishRun = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/benchmarks/{runId}/finish",
      operationId: "finishBenchmarkRun",
      summary: "Mark a run completed, failed or cancelled (trainer).",
      description:
        "Sets the run's final status and finish time; finishing a finished run again (a resumed evaluation) overwrites both. 404 for an unknown run; 503 when the server has no benchmark store.",
      errors: ["UNAVAILABLE"],
      example: { status: "completed" },
    },
  })
  .input(ZFinishBenchmarkRunRequest)
  .output(ZFinishBenchmarkRunResponse)
  .mutation(async ({ ctx, input }) => {
    const store = requireBenchmarks(ctx);
    await requireRun(store, input.runId);
    await store.finishRun(input.runId, input.status, input.finishedAtMs ?? Date.now());
    const run = await requireRun(store, input.runId);
    ctx.logger.info(
      { runId: input.runId, status: input.status, total: run.totalCount, resolved: run.resolvedCount },
      "benchmark run finished",
    );
    return { run };
  });

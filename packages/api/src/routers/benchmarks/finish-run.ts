import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { ZBenchmarkRunId, ZBenchmarkRunResponse, ZEpochMs, ZFinishedRunStatus } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

export const ZFinishBenchmarkRunRequest = z
  .object({
    runId: ZBenchmarkRunId,
    status: ZFinishedRunStatus,
    /** Default: now, by the server's clock. */
    finishedAtMs: ZEpochMs.optional(),
  })
  .strict();
export const ZFinishBenchmarkRunResponse = ZBenchmarkRunResponse;

/**
 * Marks a run completed, failed or cancelled. Finishing a finished run again (a resumed
 * evaluation) overwrites its status and finish time. Trainer or admin.
 */
export const finishRun = trainerProcedure
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

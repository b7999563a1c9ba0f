import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { ZBenchmarkLabel, ZBenchmarkRunView } from "./benchmark.schema";
import { requireBenchmarks } from "./require-benchmarks";

export const ZListBenchmarkRunsRequest = z
  .object({
    /** Only runs of this model, e.g. `Qwen/Qwen3-8B`. */
    model: ZBenchmarkLabel("a model name").optional(),
    /** Only runs on this dataset, e.g. `swe-bench-verified`. */
    dataset: ZBenchmarkLabel("a dataset name").optional(),
    /** Most runs returned, newest first. Default 100. */
    limit: z.number({ error: "expected a number" }).int().min(1).max(1_000).default(100),
  })
  .strict();
export const ZListBenchmarkRunsResponse = z.object({
  /** Newest first. */
  runs: z.array(ZBenchmarkRunView),
});

/** Benchmark runs newest first, optionally of one model and/or dataset. */
export const list = viewerProcedure
  .input(ZListBenchmarkRunsRequest)
  .output(ZListBenchmarkRunsResponse)
  .query(async ({ ctx, input }) => {
    const runs = await requireBenchmarks(ctx).listRuns({
      ...(input.model !== undefined && { model: input.model }),
      ...(input.dataset !== undefined && { dataset: input.dataset }),
    });
    return { runs: runs.slice(0, input.limit) };
  });

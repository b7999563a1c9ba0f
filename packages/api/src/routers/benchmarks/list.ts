import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { zListLimit } from "../../util/list-limit.schema";
import { ZBenchmarkLabel, ZBenchmarkRunView } from "./benchmark.schema";
import { requireBenchmarks } from "./require-benchmarks";

const ZListBenchmarkRunsRequest = z
  .object({
    model: ZBenchmarkLabel("a model name")
      .optional()
      .describe("Only runs of this model, e.g. `Qwen/Qwen3-8B`."),
    dataset: ZBenchmarkLabel("a dataset name")
      .optional()
      .describe("Only runs on this dataset, e.g. `swe-bench-verified`."),
    limit: zListLimit("Most runs returned, newest first (1 to 1000). Default 100."),
  })
  .strict()
  .meta({ description: "Filters of the run list." });
const ZListBenchmarkRunsResponse = z
  .object({ runs: z.array(ZBenchmarkRunView).describe("Runs, newest first.") })
  .meta({ description: "Benchmark runs." });

/** Benchmark runs newest first, optionally of one model and/or dataset. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/benchmarks",
      operationId: "listBenchmarkRuns",
      summary: "Benchmark runs newest first, optionally of one model and/or dataset.",
      description:
        "Runs with their total and resolved counts, newest first, at most `limit`. 503 when the server has no benchmark store.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZListBenchmarkRunsRequest)
  .output(ZListBenchmarkRunsResponse)
  .query(async ({ ctx, input }) => {
    const runs = await requireBenchmarks(ctx).listRuns({
      ...(input.model !== undefined && { model: input.model }),
      ...(input.dataset !== undefined && { dataset: input.dataset }),
    });
    return { runs: runs.slice(0, input.limit) };
  });

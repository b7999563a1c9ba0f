import { viewerProcedure } from "../../trpc";
import { ZBenchmarkRunIdRequest, ZBenchmarkRunResponse } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

const ZGetBenchmarkRunRequest = ZBenchmarkRunIdRequest;
const ZGetBenchmarkRunResponse = ZBenchmarkRunResponse;

/** One benchmark run with its total and resolved counts; 404 for an unknown id. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/benchmarks/{runId}",
      operationId: "getBenchmarkRun",
      summary: "One benchmark run with its total and resolved counts.",
      description: "404 for an unknown run id; 503 when the server has no benchmark store.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZGetBenchmarkRunRequest)
  .output(ZGetBenchmarkRunResponse)
  .query(async ({ ctx, input }) => ({ run: await requireRun(requireBenchmarks(ctx), input.runId) }));

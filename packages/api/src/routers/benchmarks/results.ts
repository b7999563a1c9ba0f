import { requestFailure, zIdString } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { zListLimit } from "../../util/list-limit.schema";
import { ZBenchmarkResultView, ZBenchmarkRunId } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

const ZBenchmarkResultsRequest = z
  .object({
    runId: ZBenchmarkRunId,
    resolved: z
      .boolean({ error: "expected true or false" })
      .optional()
      .describe("Only resolved (true) or unresolved (false) instances. Default both."),
    cursor: zIdString(300)
      .optional()
      .describe("The `nextCursor` of the previous page (an instance id); results after it."),
    limit: zListLimit("Results per page (1 to 1000). Default 100."),
  })
  .strict()
  .meta({ description: "The run and the page of results to read." });
const ZBenchmarkResultsResponse = z
  .object({
    items: z.array(ZBenchmarkResultView).describe("Results ordered by instance id."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pass back as `cursor` for the next page; null on the last page."),
  })
  .meta({ description: "One page of results." });

/** Per-instance results of a run, by instance id, a page at a time; 404 for an unknown run. */
export const results = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/benchmarks/{runId}/results",
      operationId: "listBenchmarkResults",
      summary:
        "Per-instance results of a run by instance id; pass nextCursor back as cursor for the next page.",
      description:
        "Ordered by instance id, optionally only resolved or unresolved ones. 404 for an unknown run; 503 when the server has no benchmark store.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZBenchmarkResultsRequest)
  .output(ZBenchmarkResultsResponse)
  .query(async ({ ctx, input }) => {
    const store = requireBenchmarks(ctx);
    await requireRun(store, input.runId);
    // A run holds at most a few thousand results: page in memory over the store's ordered list.
    // The cursor is found by position, not compared, so any collation of the store works.
    const all = await store.listResults(input.runId);
    let start = 0;
    if (input.cursor !== undefined) {
      start = all.findIndex((result) => result.instanceId === input.cursor) + 1;
      if (start === 0) {
        throw requestFailure(
          "VALIDATION_FAILED",
          `cursor: "${input.cursor}" is not an instance of run "${input.runId}"; pass the nextCursor of the previous page`,
        );
      }
    }
    const matching = all
      .slice(start)
      .filter((result) => input.resolved === undefined || result.resolved === input.resolved);
    const items = matching.slice(0, input.limit);
    const hasMore = matching.length > items.length;
    return { items, nextCursor: hasMore ? (items.at(-1)?.instanceId ?? null) : null };
  });

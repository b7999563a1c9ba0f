import { RaasError } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { ZBenchmarkResultView, ZBenchmarkRunId } from "./benchmark.schema";
import { requireBenchmarks, requireRun } from "./require-benchmarks";

export const ZBenchmarkResultsRequest = z
  .object({
    runId: ZBenchmarkRunId,
    /** Only resolved (true) or unresolved (false) instances. Default both. */
    resolved: z.boolean({ error: "expected true or false" }).optional(),
    /** The `nextCursor` of the previous page (an instance id); results after it. */
    cursor: z.string().max(300).optional(),
    /** Results per page. Default 100. */
    limit: z.number({ error: "expected a number" }).int().min(1).max(1_000).default(100),
  })
  .strict();
export const ZBenchmarkResultsResponse = z.object({
  /** Ordered by instance id. */
  items: z.array(ZBenchmarkResultView),
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});

/** Per-instance results of a run, by instance id, a page at a time; 404 for an unknown run. */
export const results = viewerProcedure
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
        throw new RaasError(
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

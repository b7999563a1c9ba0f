import { ZEngineStats } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

const ZStatsRequest = z.void();
const ZStatsResponse = ZEngineStats;

/** Per-stage queued/active counts, totals and throughput. */
export const stats = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/stats",
      operationId: "getStats",
      summary: "Per-stage queued/active counts, totals and throughput.",
      description:
        "A snapshot of the engine: per stage the queued and active jobs and the pool size; totals since start by outcome and failure kind; throughput now and as a recent series.",
    },
  })
  .input(ZStatsRequest)
  .output(ZStatsResponse)
  .query(({ ctx }) => ctx.engine.stats());

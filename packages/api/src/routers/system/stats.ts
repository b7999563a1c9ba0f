import { ZEngineStats } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

export const ZStatsRequest = z.void();
export const ZStatsResponse = ZEngineStats;

/** Per-stage queued/active counts, totals and throughput. */
export const stats = viewerProcedure
  .input(ZStatsRequest)
  .output(ZStatsResponse)
  .query(({ ctx }) => ctx.engine.stats());

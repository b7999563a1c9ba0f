import { ZJobListRequest, ZJobListResponse } from "@raas/shared";
import { viewerProcedure } from "../../trpc";

export const ZListRequest = ZJobListRequest;
export const ZListResponse = ZJobListResponse;

/** Jobs newest first, filtered; pass `nextCursor` back as `cursor` for the next page. */
export const list = viewerProcedure
  .input(ZListRequest)
  .output(ZListResponse)
  .query(({ ctx, input }) => ctx.engine.listJobs(input));

import { ZJobListRequest, ZJobListResponse } from "@raas/shared";
import { viewerProcedure } from "../../trpc";

const ZListRequest = ZJobListRequest;
const ZListResponse = ZJobListResponse;

/** Jobs newest first, filtered; pass `nextCursor` back as `cursor` for the next page. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/jobs",
      operationId: "listJobs",
      summary: "List jobs newest first with filters; pass nextCursor back as cursor for the next page.",
      description:
        "Filters combine with AND. Pages hold at most `limit` jobs; `nextCursor` is null on the last page. Query parameters: repeat none; numbers are parsed from the query string.",
    },
  })
  .input(ZListRequest)
  .output(ZListResponse)
  .query(({ ctx, input }) => ctx.engine.listJobs(input));

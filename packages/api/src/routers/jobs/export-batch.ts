import { ZId, ZTrajectoryExportPage } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { TOKEN_EXACT_TEXT } from "./export";
import { requireSetReader } from "./job-access";

/** Default page of `jobs.exportBatch`: each row carries whole token streams. */
const DEFAULT_EXPORT_PAGE_SIZE = 16;

const ZExportBatchRequest = z
  .object({
    batchId: ZId.describe("The batch whose jobs to export."),
    cursor: ZId.optional().describe("`nextCursor` of the previous page; omit for the first page."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(DEFAULT_EXPORT_PAGE_SIZE)
      .describe(`Jobs per page, 1 to 100. Default ${DEFAULT_EXPORT_PAGE_SIZE}.`),
  })
  .strict()
  .meta({ description: "The batch to export and the page to read." });
const ZExportBatchResponse = ZTrajectoryExportPage;

/** A batch's trajectories for training, one page at a time (newest job first). */
export const exportBatch = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/batches/{batchId}/trajectories",
      operationId: "exportBatchTrajectories",
      summary: "A batch's trajectories for training, one JSON page at a time (cursor paging).",
      description:
        "Every job of the batch (any status; filter on `trainable`), newest first, as the rows of `exportTrajectory`. " +
        "Pass `nextCursor` back as `cursor` until it is null. For a whole batch as one stream, " +
        `GET /api/v1/batches/{batchId}/trajectories.jsonl serves the same rows as JSON Lines. ${TOKEN_EXACT_TEXT} ` +
        "With `RAAS_REQUIRE_VIEWER_TOKEN` on, a trainer token reads only a batch of its own jobs (403 otherwise; viewer and admin tokens read all). 404 when no job has this batch id.",
      errors: ["NOT_FOUND", "FORBIDDEN"],
    },
  })
  .input(ZExportBatchRequest)
  .output(ZExportBatchResponse)
  .query(async ({ ctx, input }) => {
    // Every page checks: a stream of pages is as private as its first.
    await requireSetReader(ctx, { batchId: input.batchId });
    return ctx.engine.exportBatchTrajectories(input.batchId, {
      limit: input.limit,
      ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
    });
  });

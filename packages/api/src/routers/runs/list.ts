import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { zListLimit } from "../../util/list-limit.schema";
import { requireBatches } from "./require-batches";
import { ZRunItems } from "./run.schema";

const ZListRunsRequest = z
  .object({ limit: zListLimit("Most runs returned, newest first (1 to 1000). Default 100.") })
  .strict()
  .default({ limit: 100 })
  .meta({ description: "How many runs to list." });

/** Training runs, newest first. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/runs",
      operationId: "listRuns",
      summary: "Training runs, newest first.",
      description:
        "Every training run with its status and step count, newest first, at most `limit`. 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZListRunsRequest)
  .output(ZRunItems)
  .query(async ({ ctx, input }) => ({ items: await requireBatches(ctx).system.listRuns(input.limit) }));

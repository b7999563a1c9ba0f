import { ZRun } from "@raas/shared";
import { viewerProcedure } from "../../trpc";
import { requireBatches } from "./require-batches";
import { ZRunIdInput } from "./run.schema";

/** One training run; 404 for an unknown id. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/runs/{runId}",
      operationId: "getRun",
      summary: "One training run with its status and step count.",
      description: "404 for an unknown run id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZRunIdInput)
  .output(ZRun)
  .query(({ ctx, input }) => requireBatches(ctx).system.getRun(input.runId));

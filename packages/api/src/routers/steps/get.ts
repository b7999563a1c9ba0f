import { ZStep } from "@raas/shared";
import { viewerProcedure } from "../../trpc";
import { requireBatches } from "../runs/require-batches";
import { ZStepIdInput } from "../runs/run.schema";

/** One step with its status, progress, statistics and waste ledger; 404 for an unknown id. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/steps/{stepId}",
      operationId: "getStep",
      summary: "One training step with its status, progress, statistics and waste ledger.",
      description: "404 for an unknown step id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZStepIdInput)
  .output(ZStep)
  .query(({ ctx, input }) => requireBatches(ctx).system.getStep(input.stepId));

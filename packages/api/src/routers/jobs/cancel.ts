import { ZCancelRequest as ZSharedCancelRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";

export const ZCancelRequest = ZSharedCancelRequest;
export const ZCancelResponse = z
  .object({
    cancelled: z
      .array(z.string())
      .describe("Ids of the jobs this call cancelled (jobs already terminal are not listed)."),
  })
  .meta({ description: "What was cancelled." });

/** Cancels one job, a group or a batch (exactly one of `jobId`, `groupId`, `batchId`). */
export const cancel = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/jobs/cancel",
      operationId: "cancelJobs",
      summary: "Cancel one job, a group or a batch (exactly one of jobId, groupId, batchId).",
      description:
        "Running stages are aborted and their sandboxes closed; cancelled jobs end as `failed` with kind `cancelled` (never trainable). Jobs already terminal are left alone. 404 when `jobId` names no job.",
      errors: ["NOT_FOUND"],
      example: { batchId: "run-7/step-3" },
    },
  })
  .input(ZCancelRequest)
  .output(ZCancelResponse)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.engine.cancel(input);
    ctx.logger.info({ ...input, jobIds: result.cancelled }, "jobs cancelled");
    return result;
  });

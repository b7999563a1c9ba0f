import { ZCancelRequest as ZSharedCancelRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { requireJobWriter, requireSetWriter } from "./job-access";

const ZCancelRequest = ZSharedCancelRequest;
const ZCancelResponse = z
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
        "Running stages are aborted and their sandboxes closed; cancelled jobs end as `failed` with kind `cancelled` (never trainable). Jobs already terminal are left alone. Only the token that submitted the jobs (for a step's jobs: the run's owner) or an admin token may cancel them: a group or batch holding another trainer's jobs is a 403 that names the owner, and nothing is cancelled. 404 when `jobId` names no job.",
      errors: ["NOT_FOUND", "FORBIDDEN"],
      example: { batchId: "run-7/step-3" },
    },
  })
  .input(ZCancelRequest)
  .output(ZCancelResponse)
  .mutation(async ({ ctx, input }) => {
    if (input.jobId !== undefined) await requireJobWriter(ctx, input.jobId);
    else
      await requireSetWriter(
        ctx,
        input.groupId !== undefined ? { groupId: input.groupId } : { batchId: input.batchId as string },
      );
    const result = await ctx.engine.cancel(input);
    ctx.logger.info({ ...input, jobIds: result.cancelled }, "jobs cancelled");
    return result;
  });

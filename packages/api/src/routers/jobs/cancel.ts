import { ZCancelRequest as ZSharedCancelRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";

export const ZCancelRequest = ZSharedCancelRequest;
export const ZCancelResponse = z.object({
  /** Ids of the jobs this call cancelled (jobs already terminal are not listed). */
  cancelled: z.array(z.string()),
});

/** Cancels one job, a group or a batch (exactly one of `jobId`, `groupId`, `batchId`). */
export const cancel = trainerProcedure
  .input(ZCancelRequest)
  .output(ZCancelResponse)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.engine.cancel(input);
    ctx.logger.info({ ...input, jobIds: result.cancelled }, "jobs cancelled");
    return result;
  });

import { ZJob, ZSubmitJobRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";

export const ZSubmitRequest = ZSubmitJobRequest;
export const ZSubmitResponse = z.object({
  job: ZJob,
  /** False when `jobKey` already existed and the existing job was returned. */
  created: z.boolean(),
});

/** Submits one job. Idempotent by `jobKey`. */
export const submit = trainerProcedure
  .input(ZSubmitRequest)
  .output(ZSubmitResponse)
  .mutation(async ({ ctx, input }) => {
    const result = await ctx.engine.submitJob(input);
    if (result.created) ctx.logger.debug({ jobId: result.job.id, kind: result.job.kind }, "job submitted");
    return result;
  });

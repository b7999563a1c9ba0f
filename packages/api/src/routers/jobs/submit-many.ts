import { ZSubmitJobRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { ZSubmitResponse } from "./submit";

/** Most jobs accepted in one `submitMany` call. */
export const MAX_JOBS_PER_SUBMIT = 1_000;

export const ZSubmitManyRequest = z
  .object({ jobs: z.array(ZSubmitJobRequest).min(1).max(MAX_JOBS_PER_SUBMIT) })
  .strict();
export const ZSubmitManyResponse = z.object({ results: z.array(ZSubmitResponse) });

/** Submits many jobs at once; if any job is invalid, none is submitted. */
export const submitMany = trainerProcedure
  .input(ZSubmitManyRequest)
  .output(ZSubmitManyResponse)
  .mutation(async ({ ctx, input }) => {
    const results = await ctx.engine.submitJobs(input.jobs);
    ctx.logger.debug({ jobIds: results.map((result) => result.job.id) }, "jobs submitted");
    return { results };
  });

import { ZSubmitJobRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { requireSubmitTargets, submitterOf } from "./job-access";
import { ZSubmitResponse } from "./submit";

/** Most jobs accepted in one `submitMany` call. */
const MAX_JOBS_PER_SUBMIT = 1_000;

const ZSubmitManyRequest = z
  .object({
    jobs: z
      .array(ZSubmitJobRequest)
      .min(1)
      .max(MAX_JOBS_PER_SUBMIT)
      .describe(`The jobs to submit, 1 to ${MAX_JOBS_PER_SUBMIT}; all are validated before any is created.`),
  })
  .strict()
  .meta({ description: "Jobs to submit together." });
const ZSubmitManyResponse = z
  .object({
    results: z.array(ZSubmitResponse).describe("One result per submitted job, in request order."),
  })
  .meta({ description: "The jobs, new or existing, in request order." });

/** Submits many jobs at once; if any job is invalid, none is submitted. */
export const submitMany = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/jobs/batch",
      operationId: "submitJobs",
      summary: "Submit many jobs at once; if one is invalid, none is submitted.",
      description:
        "Validates every job first; a 400 names the index of the bad one (`jobs[3].payload.problem: …`) and nothing is created. Each job is idempotent by its `jobKey` as in `submitJob`; a reused key with a different request is a 409 naming the index and the fields that differ. The jobs belong to the submitting token; a `groupId` or `batchId` holding another trainer's jobs is a 403 and nothing is created.",
      errors: ["CONFLICT", "FORBIDDEN"],
      example: {
        jobs: [
          {
            kind: "math",
            jobKey: "run-7/step-3/q-42/0",
            groupId: "run-7/step-3/q-42",
            batchId: "run-7/step-3",
            payload: { taskId: "q-42", problem: "What is 6 * 7?", answer: "42" },
            metadata: { run: "run-7", step: 3 },
          },
        ],
      },
    },
  })
  .input(ZSubmitManyRequest)
  .output(ZSubmitManyResponse)
  .mutation(async ({ ctx, input }) => {
    await requireSubmitTargets(ctx, input.jobs);
    const results = await ctx.engine.submitJobs(input.jobs, submitterOf(ctx));
    ctx.logger.debug({ jobIds: results.map((result) => result.job.id) }, "jobs submitted");
    return { results };
  });

import { ZJob, ZSubmitJobRequest } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { requireSubmitTargets, submitterOf } from "./job-access";

const ZSubmitRequest = ZSubmitJobRequest;
export const ZSubmitResponse = z
  .object({
    job: ZJob,
    created: z.boolean().describe("False when `jobKey` already existed and the existing job was returned."),
  })
  .meta({ description: "The job, new or existing." });

/** Submits one job. Idempotent by `jobKey`. */
export const submit = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/jobs",
      operationId: "submitJob",
      summary: "Submit one job (idempotent by jobKey): 201 when created, 200 when the key existed.",
      description:
        "Creates a rollout job of a registered handler kind; it moves through INIT, RUN and EVAL on its own. The payload is validated by the kind's schema (a 400 lists each issue and the accepted keys). With a `jobKey`, submitting the same request again returns the existing job (200); the same key with a different request is a 409 naming the fields that differ. The job belongs to the token that submitted it (`ownerId`): cancelling it needs that token or an admin token. A `groupId` or `batchId` that holds another trainer's jobs (a step's batch included), or a `jobKey` of another trainer's job, is a 403.",
      successStatus: "created",
      errors: ["CONFLICT", "FORBIDDEN"],
      example: {
        kind: "math",
        jobKey: "run-7/step-3/q-42/0",
        groupId: "run-7/step-3/q-42",
        batchId: "run-7/step-3",
        payload: { taskId: "q-42", problem: "What is 6 * 7?", answer: "42" },
        metadata: { run: "run-7", step: 3 },
      },
    },
  })
  .input(ZSubmitRequest)
  .output(ZSubmitResponse)
  .mutation(async ({ ctx, input }) => {
    await requireSubmitTargets(ctx, [input]);
    const result = await ctx.engine.submitJob(input, submitterOf(ctx));
    if (result.created) ctx.logger.debug({ jobId: result.job.id, kind: result.job.kind }, "job submitted");
    return result;
  });

import { ZCreateStepRequest, ZStep } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { requireBatches } from "../runs/require-batches";
import { requireRunWriter } from "../runs/require-run-writer";

const ZCreateStepResponse = z
  .object({
    step: ZStep,
    created: z
      .boolean()
      .describe("False when a step with this `stepKey` existed in the run and is returned as it is."),
  })
  .meta({ description: "The step, and whether it was created by this call." });

/**
 * Starts a step: m groups of n samples from inline tasks or a dataset, decided as early as their
 * rewards allow. Idempotent by `stepKey` within the run. Trainer or admin.
 */
export const create = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/steps",
      operationId: "createStep",
      summary: "Start a training step: m groups of n samples, with dynamic sampling (trainer).",
      description:
        "Starts groups from the task source (inline tasks, or a dataset of `GET /api/v1/datasets`) and keeps enough in flight to reach `groups`; with `zero-variance` only groups whose rewards differ are handed out. Finished samples of groups left undecided by the run's previous step are used first. When more jobs fail for infrastructure reasons than `maxJobFailures` (default max(16, 2 × groups × groupSize)), the step ends `failed`: its jobs are cancelled and `failure` says why (the policy's own failures are samples and never count). Read the groups with `nextStepGroups` (long-poll) or `streamStepGroups` (SSE). With a `stepKey` already used in the run, the stored step is returned (200, `created: false`). The first jobs are validated before anything is stored: a task whose payload its handler rejects, an unknown dataset or kind is a 400 and creates nothing. 403 with another trainer's token (the run's owner token or an admin token is needed); 404 for an unknown run, 409 for a finished one; 503 when the server runs no batch system.",
      successStatus: "created",
      errors: ["CONFLICT", "UNAVAILABLE", "NOT_FOUND"],
      example: {
        runId: "run_01jd8x3v0000a1b2c3d4e5f6",
        stepKey: "step-0",
        tasks: {
          type: "inline",
          tasks: [
            {
              taskId: "math-001",
              kind: "math",
              payload: { taskId: "math-001", problem: "What is $17 \\times 23$?", answer: "391" },
            },
          ],
        },
        groupSize: 8,
        groups: 4,
        agent: { temperature: 1, maxTurns: 4 },
        dynamicSampling: { policy: "zero-variance", overProvision: 1.5 },
        staleness: { maxVersions: 1, action: "withhold" },
      },
    },
  })
  .input(ZCreateStepRequest)
  .output(ZCreateStepResponse)
  .mutation(async ({ ctx, input }) => {
    await requireRunWriter(ctx, input.runId);
    const result = await requireBatches(ctx).system.createStep(input);
    if (result.created) {
      const { step } = result;
      ctx.logger.info(
        {
          runId: step.runId,
          stepId: step.id,
          index: step.index,
          groups: step.groups,
          groupSize: step.groupSize,
        },
        "training step created",
      );
    }
    return result;
  });

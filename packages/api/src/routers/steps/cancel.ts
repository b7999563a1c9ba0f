import { ZStep } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requireBatches } from "../runs/require-batches";
import { requireRunWriter } from "../runs/require-run-writer";
import { ZStepIdInput } from "../runs/run.schema";

/** Cancels a running step: its jobs are cancelled, finished samples kept for the run's next step. Trainer or admin. */
export const cancel = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/steps/{stepId}/cancel",
      operationId: "cancelStep",
      summary: "Cancel a running step; finished samples are kept for the run's next step (trainer).",
      description:
        "The step's running jobs are cancelled through the normal cancel path (sandboxes closed); finished samples of undecided groups are carried into the run's next step. Groups already handed out stay readable. Cancelling a closed step returns it unchanged. 403 with another trainer's token (the run's owner token or an admin token is needed); 404 for an unknown step id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZStepIdInput)
  .output(ZStep)
  .mutation(async ({ ctx, input }) => {
    const batches = requireBatches(ctx);
    await requireRunWriter(ctx, (await batches.system.getStep(input.stepId)).runId);
    const step = await batches.system.cancelStep(input.stepId);
    ctx.logger.info({ stepId: step.id, status: step.status }, "training step cancelled");
    return step;
  });

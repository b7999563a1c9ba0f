import { ZRun } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requireBatches } from "./require-batches";
import { requireRunWriter } from "./require-run-writer";
import { ZRunIdInput } from "./run.schema";

/** Marks a run finished; its running steps are cancelled. The run's owner token or admin. */
export const finish = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/runs/{runId}/finish",
      operationId: "finishRun",
      summary: "Mark a training run finished; its running steps are cancelled (trainer).",
      description:
        "A finished run takes no new steps (creating one is a 409). Its running steps are cancelled first: their jobs are cancelled, finished samples kept. Finishing a finished run again returns it unchanged. 403 with another trainer's token (the run's owner token or an admin token is needed); 404 for an unknown run id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZRunIdInput)
  .output(ZRun)
  .mutation(async ({ ctx, input }) => {
    await requireRunWriter(ctx, input.runId);
    const run = await requireBatches(ctx).system.finishRun(input.runId);
    ctx.logger.info({ runId: run.id, steps: run.stepCount }, "training run finished");
    return run;
  });

import { ZStage } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";

const ZSetConcurrencyRequest = z
  .object({
    stage: ZStage,
    concurrency: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .describe("Jobs of this stage allowed to run at once (0 to 100_000); 0 pauses the stage."),
  })
  .strict()
  .meta({ description: "The stage pool to resize and its new size." });
const ZSetConcurrencyResponse = z
  .object({
    stage: ZStage,
    concurrency: z.number().int().describe("The pool's size now."),
  })
  .meta({ description: "The resized stage pool." });

/** Resizes one stage pool at run time. Admin only. */
export const setConcurrency = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/stages/concurrency",
      operationId: "setConcurrency",
      summary: "Resize one stage pool at run time (admin).",
      description:
        "Sets how many jobs of one stage (init, run, eval) run at once. Running jobs are never interrupted: a smaller pool shrinks as jobs finish; 0 pauses the stage.",
      example: { stage: "run", concurrency: 32 },
    },
  })
  .input(ZSetConcurrencyRequest)
  .output(ZSetConcurrencyResponse)
  .mutation(({ ctx, input }) => {
    ctx.engine.setConcurrency(input.stage, input.concurrency);
    ctx.logger.info({ stage: input.stage, concurrency: input.concurrency }, "stage concurrency changed");
    return { stage: input.stage, concurrency: ctx.engine.stats().stages[input.stage].concurrency };
  });

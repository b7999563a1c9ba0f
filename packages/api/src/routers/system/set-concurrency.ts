import { ZStage } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";

export const ZSetConcurrencyRequest = z
  .object({
    stage: ZStage,
    /** Jobs of this stage allowed to run at once; 0 pauses the stage. */
    concurrency: z.number().int().min(0).max(100_000),
  })
  .strict();
export const ZSetConcurrencyResponse = z.object({ stage: ZStage, concurrency: z.number().int() });

/** Resizes one stage pool at run time. Admin only. */
export const setConcurrency = adminProcedure
  .input(ZSetConcurrencyRequest)
  .output(ZSetConcurrencyResponse)
  .mutation(({ ctx, input }) => {
    ctx.engine.setConcurrency(input.stage, input.concurrency);
    ctx.logger.info({ stage: input.stage, concurrency: input.concurrency }, "stage concurrency changed");
    return { stage: input.stage, concurrency: ctx.engine.stats().stages[input.stage].concurrency };
  });

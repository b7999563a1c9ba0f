import { z } from "zod";
import { ZFailureKind } from "./job-status";

export const ZStageCounts = z.object({
  queued: z.number().int(),
  active: z.number().int(),
  concurrency: z.number().int(),
});

export const ZEngineStats = z.object({
  stages: z.object({ init: ZStageCounts, run: ZStageCounts, eval: ZStageCounts }),
  submitted: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
  failedByKind: z.record(ZFailureKind, z.number().int()),
  tokenBreaks: z
    .number()
    .int()
    .describe(
      "Trajectories whose turns broke the token-in/token-out property as they were stored (a prompt not " +
        "extending the previous prompt + response), since the server started. Should stay 0.",
    ),
  /** Jobs reaching a terminal state per second, averaged over `throughputWindowMs`. */
  throughputPerSec: z.number(),
  throughputWindowMs: z.number(),
  /** Recent throughput samples, oldest first: one point per `sampleEveryMs`. */
  throughputSeries: z.array(
    z.object({ atMs: z.number(), completedPerSec: z.number(), failedPerSec: z.number() }),
  ),
  uptimeMs: z.number(),
});
export type TEngineStats = z.infer<typeof ZEngineStats>;

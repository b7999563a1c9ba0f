import { z } from "zod";
import { ZFailureKind, ZFailureLabel } from "./job-status";
import { ZStage } from "./stage";

const ZStageCounts = z
  .object({
    queued: z.number().int().describe("Jobs waiting for this stage."),
    active: z.number().int().describe("Jobs running this stage now."),
    concurrency: z.number().int().describe("The stage pool's size (jobs it runs at once)."),
  })
  .meta({ id: "StageCounts", description: "Queue and pool of one stage." });

export const ZEngineStats = z
  .object({
    stages: z
      .object({ init: ZStageCounts, run: ZStageCounts, eval: ZStageCounts })
      .describe("Per-stage queued/active counts and pool sizes."),
    submitted: z.number().int().describe("Jobs submitted since the server started."),
    completed: z.number().int().describe("Jobs completed since the server started."),
    cancelled: z.number().int().describe("Jobs cancelled since the server started."),
    failedByKind: z
      .record(ZFailureKind, z.number().int())
      .describe("Failed jobs since the server started, by failure kind."),
    failedByLabel: z
      .record(ZFailureLabel, z.number().int())
      .describe(
        "Failed jobs since the server started, by failure label (a subset of `failedByKind`): `tampered` = `agent` failures whose grade was voided because a grader's canary tests reported a false outcome (reward 0, trainable); `misconfigured` = `sandbox` failures the job's own configuration caused (an MCP server its environment declares could not start), not retried.",
      ),
    tokenBreaks: z
      .number()
      .int()
      .describe(
        "Trajectories whose turns broke the token-in/token-out property as they were stored (a prompt not " +
          "extending the previous prompt + response), since the server started. Should stay 0.",
      ),
    throughputPerSec: z
      .number()
      .describe("Jobs reaching a terminal state per second, averaged over `throughputWindowMs`."),
    throughputWindowMs: z.number().describe("The window of `throughputPerSec`, in ms."),
    throughputSeries: z
      .array(
        z.object({
          atMs: z.number().describe("Sample time, ms since the Unix epoch."),
          completedPerSec: z.number().describe("Completions per second at that time."),
          failedPerSec: z.number().describe("Failures per second at that time."),
          failures: z
            .array(
              z.object({
                kind: ZFailureKind,
                stage: ZStage.describe("The stage the jobs failed in."),
                count: z.number().int().describe("Jobs that failed this way in the interval."),
              }),
            )
            .describe(
              "Failures in the interval ending at `atMs`, by kind and stage (only pairs that occurred; " +
                "cancellations are not failures and are left out).",
            ),
        }),
      )
      .describe("Recent throughput samples, oldest first."),
    uptimeMs: z.number().describe("Time since the engine started, in ms."),
  })
  .meta({ description: "Engine statistics: stage queues, totals and throughput." });
export type TEngineStats = z.infer<typeof ZEngineStats>;

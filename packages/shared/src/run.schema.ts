import { z } from "zod";
import { ZId, zFilterString, zIdString, zJsonObjectWithoutNul } from "./id.schema";

/** Create a training run: one training job (a series of steps) of one model on one dataset. */
export const ZCreateRunRequest = z
  .object({
    name: zIdString(200).describe("A name for people (`qwen3-8b-dapo-math`)."),
    runKey: zIdString(300)
      .optional()
      .describe("Idempotency key: the same key returns the existing run (a trainer restarting)."),
    model: zFilterString(300).optional().describe("The policy model being trained, for display."),
    dataset: zFilterString(300).optional().describe("The dataset the run trains on, for display."),
    config: zJsonObjectWithoutNul()
      .optional()
      .describe("The trainer's configuration (learning rate, …); stored, never interpreted."),
  })
  .strict()
  .meta({ id: "CreateRunRequest", description: "A training run to create." });
export type TCreateRunRequest = z.input<typeof ZCreateRunRequest>;

export const RUN_STATUSES = ["active", "finished"] as const;
export const ZRunStatus = z.enum(RUN_STATUSES).describe("`active` until `runs.finish`.");

export const ZRun = z
  .object({
    id: z.string().describe("The run's id (`run_…`)."),
    runKey: z.string().nullable().describe("Its idempotency key, or null."),
    name: z.string().describe("Its name."),
    model: z.string().nullable().describe("The policy model, or null."),
    dataset: z.string().nullable().describe("The dataset, or null."),
    config: z.record(z.string(), z.unknown()).nullable().describe("The trainer's configuration, or null."),
    status: ZRunStatus,
    stepCount: z.number().int().nonnegative().describe("Steps created so far."),
    createdAtMs: z.number().describe("Creation time, ms since the Unix epoch."),
    updatedAtMs: z.number().describe("Last change, ms since the Unix epoch."),
  })
  .meta({ id: "Run", description: "One training run: a series of steps." });
export type TRun = z.infer<typeof ZRun>;

export const ZRunIdRequest = z
  .object({ runId: ZId.describe("The run's id.") })
  .strict()
  .meta({ description: "Names one run." });

export const ZRunListRequest = z
  .object({
    limit: z.number().int().min(1).max(1000).default(100).describe("Most runs returned, newest first."),
  })
  .strict()
  .meta({ description: "Which runs to list." });
export type TRunListRequest = z.input<typeof ZRunListRequest>;

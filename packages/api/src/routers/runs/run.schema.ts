import { ZId, ZRun, ZStep } from "@raas/shared";
import { z } from "zod";

/** A run id as a path parameter. */
export const ZRunIdInput = z
  .object({ runId: ZId.describe("The run's id (`run_…`).") })
  .strict()
  .meta({ description: "The run to read or change." });

/** A step id as a path parameter. */
export const ZStepIdInput = z
  .object({ stepId: ZId.describe("The step's id (`stp_…`).") })
  .strict()
  .meta({ description: "The step to read or change." });

export const ZRunItems = z
  .object({ items: z.array(ZRun).describe("Runs, newest first.") })
  .meta({ description: "Training runs." });

export const ZStepItems = z
  .object({ items: z.array(ZStep).describe("The run's steps, oldest (index 0) first.") })
  .meta({ description: "A run's steps." });

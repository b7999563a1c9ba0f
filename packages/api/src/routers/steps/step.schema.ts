import { ZGroup, ZGroupResult, ZId, ZStep } from "@raas/shared";
import { z } from "zod";

/** Longest a `steps.next` long-poll blocks, in ms. */
const MAX_STEP_WAIT_MS = 60_000;
/** Most groups one `steps.next` call returns. */
const MAX_GROUPS_PER_CALL = 256;

export const ZAfterSeq = z
  .number({ error: "expected a whole number" })
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .default(0)
  .describe(
    "Return groups handed out after this sequence number (the last `seq` seen; 0 from the start). Default 0.",
  );

export const ZNextGroupsRequest = z
  .object({
    stepId: ZId.describe("The step's id (`stp_…`)."),
    afterSeq: ZAfterSeq,
    limit: z
      .number({ error: "expected a whole number" })
      .int()
      .min(1)
      .max(MAX_GROUPS_PER_CALL)
      .default(16)
      .describe(`Most groups returned (1 to ${MAX_GROUPS_PER_CALL}). Default 16.`),
    timeoutMs: z
      .number({ error: "expected a number of milliseconds" })
      .int()
      .min(0)
      .max(MAX_STEP_WAIT_MS)
      .default(30_000)
      .describe(
        `How long to wait for a group when none is ready, in ms (0 returns at once; at most ${MAX_STEP_WAIT_MS}). Default 30_000.`,
      ),
  })
  .strict()
  .meta({ description: "Which step's groups to wait for, from where, how many and how long." });

export const ZNextGroupsResponse = z
  .object({
    step: ZStep,
    groups: z
      .array(ZGroupResult)
      .describe(
        "Groups handed out after `afterSeq`, in completion order; empty when the timeout came first.",
      ),
    done: z
      .boolean()
      .describe(
        "True when the step is closed and no group after these will come: stop polling. A step closed as `failed` (its infrastructure failures passed `maxJobFailures`) says why in `step.failure`.",
      ),
  })
  .meta({ description: "The step's handed-out groups after `afterSeq`, and whether more can come." });

export const ZGroupItems = z
  .object({ items: z.array(ZGroup).describe("The step's groups, oldest first, whatever their state.") })
  .meta({ description: "A step's groups." });

import { MAX_JOB_WAIT_MS, ZId, ZJob } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

const ZWaitRequest = z
  .object({
    ids: z.array(ZId).min(1).max(1_000).describe("Ids of the jobs to wait for, 1 to 1000."),
    timeoutMs: z
      .number()
      .int()
      .min(0)
      .max(MAX_JOB_WAIT_MS)
      .default(30_000)
      .describe("How long to block at most, in ms (0 returns at once). Default 30_000, at most 60_000."),
  })
  .strict()
  .meta({ description: "Jobs to wait for and how long." });
const ZWaitResponse = z
  .object({
    jobs: z.array(ZJob).describe("The jobs in their current state, in request order."),
    done: z
      .boolean()
      .describe("True when every requested job is terminal; false when the timeout came first."),
  })
  .meta({ description: "The jobs when they finished or the timeout passed." });

/** Long-poll: returns when every job is terminal or `timeoutMs` passed, whichever is first. */
export const wait = viewerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/jobs/wait",
      operationId: "waitForJobs",
      summary: "Long-poll until every listed job is terminal or timeoutMs (≤ 60 000) passes.",
      description:
        "Blocks until all listed jobs are terminal (`done: true`) or `timeoutMs` passes (`done: false`), then returns their current state; call again to keep waiting. Stops when the client disconnects. 404 when an id names no job.",
      errors: ["NOT_FOUND"],
      example: { ids: ["job_01jd8x3v0000a1b2c3d4e5f6"], timeoutMs: 30_000 },
    },
  })
  .input(ZWaitRequest)
  .output(ZWaitResponse)
  .query(({ ctx, input, signal }) =>
    ctx.engine.waitForJobs(
      input.ids,
      signal ? { timeoutMs: input.timeoutMs, signal } : { timeoutMs: input.timeoutMs },
    ),
  );

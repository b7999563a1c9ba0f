import { ZJob } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

/** Longest a single wait may block, in ms. */
export const MAX_WAIT_MS = 60_000;

export const ZWaitRequest = z
  .object({
    ids: z.array(z.string().min(1).max(200)).min(1).max(1_000),
    /** How long to block at most, in ms (0 returns at once). Default 30_000, at most 60_000. */
    timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).default(30_000),
  })
  .strict();
export const ZWaitResponse = z.object({
  jobs: z.array(ZJob),
  /** True when every requested job is terminal; false when the timeout came first. */
  done: z.boolean(),
});

/** Long-poll: returns when every job is terminal or `timeoutMs` passed, whichever is first. */
export const wait = viewerProcedure
  .input(ZWaitRequest)
  .output(ZWaitResponse)
  .query(({ ctx, input, signal }) =>
    ctx.engine.waitForJobs(
      input.ids,
      signal ? { timeoutMs: input.timeoutMs, signal } : { timeoutMs: input.timeoutMs },
    ),
  );

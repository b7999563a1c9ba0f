import { ZId } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireSandboxEvents } from "./require-sandbox-events";
import { ZSandboxEventView, ZSandboxHostId, ZSandboxId, ZSandboxSinceMs } from "./sandbox.schema";

export const ZSandboxEventsRequest = z
  .object({
    jobId: ZId.describe("Only events of this job's sandboxes.").optional(),
    sandboxId: ZSandboxId.optional(),
    hostId: ZSandboxHostId.optional(),
    type: z
      .enum(["created", "ready", "assigned", "limit_hit", "crashed", "start_failed", "closed"])
      .describe("Only events of this type.")
      .optional(),
    sinceMs: ZSandboxSinceMs.optional(),
    limit: z
      .number({ error: "expected a number" })
      .int()
      .min(1)
      .max(1_000)
      .default(100)
      .describe("Most events returned (the newest). Default 100, at most 1000."),
  })
  .strict()
  .default({ limit: 100 });
export const ZSandboxEventsResponse = z.object({
  /** Newest first. */
  events: z.array(ZSandboxEventView),
});

/** Stored sandbox lifecycle events, newest first, filtered by job, sandbox, host, type and time. */
export const events = viewerProcedure
  .input(ZSandboxEventsRequest)
  .output(ZSandboxEventsResponse)
  .query(async ({ ctx, input }) => ({ events: await requireSandboxEvents(ctx).listEvents(input) }));

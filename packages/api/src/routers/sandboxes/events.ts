import { ZId } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { zListLimit } from "../../util/list-limit.schema";
import { requireSandboxEvents } from "./require-sandbox-events";
import { ZSandboxEventView, ZSandboxHostId, ZSandboxId, ZSandboxSinceMs } from "./sandbox.schema";

const ZSandboxEventsRequest = z
  .object({
    jobId: ZId.describe("Only events of this job's sandboxes.").optional(),
    sandboxId: ZSandboxId.optional(),
    hostId: ZSandboxHostId.optional(),
    type: z
      .enum([
        "created",
        "ready",
        "assigned",
        "limit_hit",
        "crashed",
        "start_failed",
        "start_cancelled",
        "closed",
      ])
      .describe("Only events of this type.")
      .optional(),
    sinceMs: ZSandboxSinceMs.optional(),
    limit: zListLimit("Most events returned (the newest). Default 100, at most 1000."),
  })
  .strict()
  .meta({ description: "Filters of the sandbox event list." });
const ZSandboxEventsResponse = z
  .object({ events: z.array(ZSandboxEventView).describe("Matching events, newest first.") })
  .meta({ description: "Stored sandbox events." });

/** Stored sandbox lifecycle events, newest first, filtered by job, sandbox, host, type and time. */
export const events = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/sandboxes/events",
      operationId: "listSandboxEvents",
      summary: "Stored sandbox lifecycle events, newest first.",
      description:
        "Events of the agent sandboxes (created, ready, assigned, limit_hit, crashed with exit signal and stderr tail, start_failed, closed) with job, host and time; filter by job, sandbox, host, type and time. 503 when the server records no sandbox events.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZSandboxEventsRequest)
  .output(ZSandboxEventsResponse)
  .query(async ({ ctx, input }) => ({ events: await requireSandboxEvents(ctx).listEvents(input) }));

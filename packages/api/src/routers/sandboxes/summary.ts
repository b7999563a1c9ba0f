import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireSandboxEvents } from "./require-sandbox-events";
import { ZSandboxHostId, ZSandboxSinceMs, ZSandboxSummary } from "./sandbox.schema";

const ZSandboxSummaryRequest = z
  .object({ hostId: ZSandboxHostId.optional(), sinceMs: ZSandboxSinceMs.optional() })
  .strict()
  .meta({ description: "Filters of the sandbox summary." });
const ZSandboxSummaryResponse = ZSandboxSummary.meta({
  description: "Sandbox health over the sandboxes that match the filters.",
});

/** Sandbox health: counts by state, close reason and limit kind, mean ready time and lifetime. */
export const summary = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/sandboxes/summary",
      operationId: "getSandboxSummary",
      summary: "Sandbox health: counts by state, close reason and limit kind.",
      description:
        "How many sandboxes there were, by last state and close reason, limit hits by kind, crashes, failed starts, mean created-to-ready time and mean lifetime; of one host and/or since a time. 503 when the server records no sandbox events.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZSandboxSummaryRequest)
  .output(ZSandboxSummaryResponse)
  .query(({ ctx, input }) => requireSandboxEvents(ctx).summarize(input));

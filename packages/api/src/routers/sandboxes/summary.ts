import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireSandboxEvents } from "./require-sandbox-events";
import { ZSandboxHostId, ZSandboxSinceMs, ZSandboxSummary } from "./sandbox.schema";

export const ZSandboxSummaryRequest = z
  .object({ hostId: ZSandboxHostId.optional(), sinceMs: ZSandboxSinceMs.optional() })
  .strict()
  .default({});
export const ZSandboxSummaryResponse = ZSandboxSummary;

/** Sandbox health: counts by state, close reason and limit kind, mean ready time and lifetime. */
export const summary = viewerProcedure
  .input(ZSandboxSummaryRequest)
  .output(ZSandboxSummaryResponse)
  .query(({ ctx, input }) => requireSandboxEvents(ctx).summarize(input));

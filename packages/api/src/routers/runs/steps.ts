import { viewerProcedure } from "../../trpc";
import { requireBatches } from "./require-batches";
import { ZRunIdInput, ZStepItems } from "./run.schema";

/** A run's steps, oldest first, each with its status and statistics. */
export const steps = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/runs/{runId}/steps",
      operationId: "listSteps",
      summary: "A run's steps, oldest first, with status, progress and statistics.",
      description:
        "Each step with its counters, reward statistics and waste ledger (what the dashboard's reward curves plot). 404 for an unknown run id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZRunIdInput)
  .output(ZStepItems)
  .query(async ({ ctx, input }) => ({ items: await requireBatches(ctx).system.listSteps(input.runId) }));

import { ZCurriculumStats } from "@raas/shared";
import { viewerProcedure } from "../../trpc";
import { requireBatches } from "./require-batches";
import { ZRunIdInput } from "./run.schema";

/** A run's curriculum: tasks unexplored/active/retired now and the pass-rate histogram at each step's close. */
export const curriculum = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/runs/{runId}/curriculum",
      operationId: "getRunCurriculum",
      summary: "Per-task pass rates of a run: tasks active/retired and the pass-rate histogram over time.",
      description:
        "Counts of the run's task source now (unexplored, active, retired, never/always solved over the last K attempts) and one snapshot per closed step (the histogram of per-task pass rates the dashboard charts). 404 for an unknown run id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZRunIdInput)
  .output(ZCurriculumStats)
  .query(async ({ ctx, input }) => requireBatches(ctx).system.curriculumStats(input.runId));

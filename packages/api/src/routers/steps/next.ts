import { viewerProcedure } from "../../trpc";
import { requireBatches } from "../runs/require-batches";
import { requireRunReader } from "../runs/require-run-writer";
import { ZNextGroupsRequest, ZNextGroupsResponse } from "./step.schema";

/** Long-poll: the step's groups handed out after `afterSeq`, waiting up to `timeoutMs` for one. */
export const next = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/steps/{stepId}/next",
      operationId: "nextStepGroups",
      summary: "Long-poll for a step's next handed-out groups (with trajectories) after afterSeq.",
      description:
        "Returns at once when groups after `afterSeq` are ready (at most `limit`, in completion order), else waits up to `timeoutMs` (≤ 60 000) for one. Each group carries every member's trajectory: flat tokens, loss mask, logprobs, reward, weight versions. Call again with the last `seq` as `afterSeq` until `done` is true. A step that ended `failed` (its infrastructure failures passed `maxJobFailures`) answers `done` with the groups it handed out before and `step.failure`: the counts, the budget and the commonest cause. Stops when the client disconnects. With `RAAS_REQUIRE_VIEWER_TOKEN` on, a trainer token reads only its own runs' steps (403 otherwise; viewer and admin tokens read all). 404 for an unknown step id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE", "FORBIDDEN"],
    },
  })
  .input(ZNextGroupsRequest)
  .output(ZNextGroupsResponse)
  .query(async ({ ctx, input, signal }) => {
    const { system } = requireBatches(ctx);
    if (ctx.requireViewerToken && ctx.principal.role === "trainer")
      await requireRunReader(ctx, (await system.getStep(input.stepId)).runId);
    return system.nextGroups(input.stepId, {
      afterSeq: input.afterSeq,
      limit: input.limit,
      timeoutMs: input.timeoutMs,
      ...(signal && { signal }),
    });
  });

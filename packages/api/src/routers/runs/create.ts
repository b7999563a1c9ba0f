import { ZCreateRunRequest, ZRun } from "@raas/shared";
import { z } from "zod";
import { trainerProcedure } from "../../trpc";
import { requireBatches } from "./require-batches";

const ZCreateRunResponse = z
  .object({
    run: ZRun,
    created: z.boolean().describe("False when a run with this `runKey` existed and is returned as it is."),
  })
  .meta({ description: "The run, and whether it was created by this call." });

/** Creates a training run; idempotent by `runKey` (a restarted trainer gets its run back). Trainer or admin. */
export const create = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/runs",
      operationId: "createRun",
      summary: "Create a training run (idempotent by runKey): 201, or 200 with the existing run (trainer).",
      description:
        "A run is one training job: a series of steps of one model on one dataset. It belongs to the token that created it (`ownerId`): its steps, cancels and finish need that token or an admin token. `policyId` names the policy it trains (default: the default policy): its jobs generate only on the backends registered under that policy, are stamped with its weight version and wait only on its pause; a policy nobody owns yet becomes the creating trainer token's (its version and pause then need that token or admin). `share`, `priority` and `maxSandboxes` set its fair share of the service among active runs (weighted fair queuing of stage slots), its priority (may preempt lower-priority INIT/RUN work, re-queued) and a cap on its sandboxes. `image` is the default image of its jobs' sandboxes (a job's own — its payload's `image`, a SWE spec's or pattern's, a Harbor task's — wins). With a `runKey` already used, the stored run is returned (200, `created: false`) — a restarted trainer gets its run back. 503 when the server runs no batch system.",
      successStatus: "created",
      errors: ["UNAVAILABLE"],
      example: {
        name: "qwen3-8b-dapo-math",
        runKey: "qwen3-8b-dapo-math-2026-05-01",
        model: "Qwen/Qwen3-8B",
        dataset: "math",
        config: { learningRate: 1e-6, groupSize: 8 },
        share: 3,
        priority: 0,
        maxSandboxes: 64,
        policyId: "qwen3-8b-dapo-math",
      },
    },
  })
  .input(ZCreateRunRequest)
  .output(ZCreateRunResponse)
  .mutation(async ({ ctx, input }) => {
    // The run belongs to the token that created it: writes to it need that token (or admin).
    const ownerId = ctx.principal.tokenId ?? null;
    const result = await requireBatches(ctx).system.createRun(input, { ownerId });
    // A policy nobody owns yet becomes the trainer's that first runs on it: another trainer's run
    // may share its backends but cannot re-version or pause it.
    if (ctx.policy && ctx.principal.role === "trainer" && ownerId !== null)
      await ctx.policy.claim(result.run.policyId, ownerId);
    if (result.created)
      ctx.logger.info(
        { runId: result.run.id, name: result.run.name, policyId: result.run.policyId },
        "training run created",
      );
    return result;
  });

import { ZPauseRequest, ZPolicyState } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requirePolicyWriter } from "./require-policy-writer";

/** Stops dispatching one policy's generation for a weight sync. Its owner's trainer token, or admin. */
export const pause = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/policy/pause",
      operationId: "pausePolicy",
      summary: "Pause a policy's generation for a weight sync: wait, or abort-and-continue (trainer).",
      description:
        "No new generation request of the policy's jobs is dispatched until `resumePolicy`; other policies' jobs go on. With `wait` the policy's generation already running finishes (the drain before a weight sync); with `abort-and-continue` it is stopped and later continued from its already generated tokens under the new weights (each token keeps the weight version that produced it). No trajectory is lost or restarted. Pausing a paused policy only changes the mode. `policyId` names the policy (default: the default policy). Only the token that owns the policy or an admin token may pause it; a policy nobody owns yet becomes the calling trainer token's. 403 for another trainer's policy; 503 when the server runs no policy control.",
      errors: ["UNAVAILABLE", "FORBIDDEN"],
      example: { mode: "abort-and-continue" },
    },
  })
  .input(ZPauseRequest)
  .output(ZPolicyState)
  .mutation(async ({ ctx, input }) => {
    const state = await (await requirePolicyWriter(ctx, input.policyId)).pause(input);
    ctx.logger.info({ policyId: state.policyId, mode: state.pauseMode }, "policy paused");
    return state;
  });

import { ZPauseRequest, ZPolicyState } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requirePolicy } from "../runs/require-batches";

/** Stops dispatching generation for a weight sync. Trainer or admin. */
export const pause = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/policy/pause",
      operationId: "pausePolicy",
      summary: "Pause generation for a weight sync: wait, or abort-and-continue (trainer).",
      description:
        "No new generation request is dispatched until `resumePolicy`. With `wait` generation already running finishes; with `abort-and-continue` it is stopped and later continued from its already generated tokens under the new weights (each token keeps the weight version that produced it). No trajectory is lost or restarted. Pausing a paused policy only changes the mode. 503 when the server runs no policy control.",
      errors: ["UNAVAILABLE"],
      example: { mode: "abort-and-continue" },
    },
  })
  .input(ZPauseRequest)
  .output(ZPolicyState)
  .mutation(async ({ ctx, input }) => {
    const state = await requirePolicy(ctx).pause(input);
    ctx.logger.info({ mode: state.pauseMode }, "policy paused");
    return state;
  });

import { ZPolicyState, ZSetPolicyVersionRequest } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requirePolicy } from "../runs/require-batches";

/** Announces the weight version every backend now serves; versions only grow. Trainer or admin. */
export const setWeightVersion = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/policy/weight-version",
      operationId: "setPolicyWeightVersion",
      summary: "Announce the policy weight version every backend now serves (trainer).",
      description:
        "Call after the new weights are loaded everywhere: samples dispatched from now on are stamped with this version, and steps with a staleness limit withhold or regenerate samples that fall too far behind it. Setting the current version again is a no-op; a lower one is a 409 (versions only grow). 503 when the server runs no policy control.",
      errors: ["CONFLICT", "UNAVAILABLE"],
      example: { weightVersion: 121 },
    },
  })
  .input(ZSetPolicyVersionRequest)
  .output(ZPolicyState)
  .mutation(async ({ ctx, input }) => {
    const state = await requirePolicy(ctx).setWeightVersion(input.weightVersion);
    ctx.logger.info({ weightVersion: state.weightVersion }, "policy weight version set");
    return state;
  });

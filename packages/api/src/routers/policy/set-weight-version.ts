import { ZPolicyState, ZSetPolicyVersionRequest } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requirePolicyWriter } from "./require-policy-writer";

/** Announces the weight version a policy's backends now serve; versions only grow. Owner or admin. */
export const setWeightVersion = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/policy/weight-version",
      operationId: "setPolicyWeightVersion",
      summary: "Announce the weight version a policy's backends now serve (trainer).",
      description:
        "Call after the new weights are loaded on every backend of the policy: samples of its runs dispatched from now on are stamped with this version (and its backends with it), and its runs' steps with a staleness limit withhold or regenerate samples that fall too far behind it. Other policies' versions are untouched. Setting the current version again is a no-op; a lower one is a 409 (versions only grow). `policyId` names the policy (default: the default policy); only its owner's token or an admin token may set it, and a policy nobody owns yet becomes the calling trainer token's. 403 for another trainer's policy; 503 when the server runs no policy control.",
      errors: ["CONFLICT", "UNAVAILABLE", "FORBIDDEN"],
      example: { weightVersion: 121 },
    },
  })
  .input(ZSetPolicyVersionRequest)
  .output(ZPolicyState)
  .mutation(async ({ ctx, input }) => {
    const policy = await requirePolicyWriter(ctx, input.policyId);
    const state = await policy.setWeightVersion(input.weightVersion, input.policyId);
    ctx.logger.info(
      { policyId: state.policyId, weightVersion: state.weightVersion },
      "policy weight version set",
    );
    return state;
  });

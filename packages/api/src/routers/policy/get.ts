import { ZPolicyIdRequest, ZPolicyState } from "@raas/shared";
import { viewerProcedure } from "../../trpc";
import { requirePolicy } from "../runs/require-batches";

/** A policy's owner, weight version and whether its generation is paused for a weight sync. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/policy",
      operationId: "getPolicy",
      summary: "A policy's current weight version and weight-sync pause (default: the default policy).",
      description:
        "The weight version the policy's samples are stamped with when dispatched (its runs' staleness counts in these versions), whether its generation is paused (and how), and the token that owns it. `policyId` names the policy; without it, the default policy. A policy nobody changed yet is returned in its initial state. 503 when the server runs no policy control.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZPolicyIdRequest)
  .output(ZPolicyState)
  .query(({ ctx, input }) => requirePolicy(ctx).stateOf(input.policyId));

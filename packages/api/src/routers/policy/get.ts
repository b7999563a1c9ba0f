import { ZPolicyState } from "@raas/shared";
import { viewerProcedure } from "../../trpc";
import { requirePolicy } from "../runs/require-batches";

/** The policy's weight version and whether generation is paused for a weight sync. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/policy",
      operationId: "getPolicy",
      summary: "The policy's current weight version and weight-sync pause.",
      description:
        "The weight version samples are stamped with when dispatched (staleness counts in these versions), and whether generation is paused (and how). 503 when the server runs no policy control.",
      errors: ["UNAVAILABLE"],
    },
  })
  .output(ZPolicyState)
  .query(({ ctx }) => requirePolicy(ctx).state);

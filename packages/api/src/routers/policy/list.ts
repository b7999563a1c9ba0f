import { ZPolicyList } from "@raas/shared";
import { viewerProcedure } from "../../trpc";
import { requirePolicy } from "../runs/require-batches";

/** Every policy the service knows, with owner, weight version and pause. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/policies",
      operationId: "listPolicies",
      summary: "Every policy: its owner, weight version and weight-sync pause.",
      description:
        "One row per policy that was ever changed or claimed, and the default policy always, by id. Runs name their policy (`policyId`), backends are registered under one. 503 when the server runs no policy control.",
      errors: ["UNAVAILABLE"],
    },
  })
  .output(ZPolicyList)
  .query(({ ctx }) => ({ items: requirePolicy(ctx).list() }));

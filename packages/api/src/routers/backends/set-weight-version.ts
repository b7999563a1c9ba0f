import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { ZBackendId, ZBackendResponse, ZWeightVersion } from "./backend.schema";
import { requireBackends } from "./require-backends";

const ZSetWeightVersionRequest = z
  .object({
    id: ZBackendId,
    weightVersion: ZWeightVersion.describe(
      "The weight version the backend serves from now on (e.g. `step-120`); null when unknown.",
    ),
  })
  .strict()
  .meta({ description: "The backend and the weight version it now serves." });
const ZSetWeightVersionResponse = ZBackendResponse;

/**
 * Records the weight version a backend now serves (after the trainer pushed new weights to it).
 * Turns generated from now on carry it. Admin only.
 */
export const setWeightVersion = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/backends/{id}/weight-version",
      operationId: "setBackendWeightVersion",
      summary: "Record the weight version a backend serves from now on (admin).",
      description:
        "Call after the trainer pushed new weights to the backend: turns generated from now on carry this version. 404 for an unknown id; 503 without an inference pool.",
      errors: ["UNAVAILABLE"],
      example: { weightVersion: "step-121" },
    },
  })
  .input(ZSetWeightVersionRequest)
  .output(ZSetWeightVersionResponse)
  .mutation(async ({ ctx, input }) => {
    const backend = await requireBackends(ctx).registry.setWeightVersion(input.id, input.weightVersion);
    ctx.logger.info(
      { backendId: input.id, weightVersion: input.weightVersion },
      "backend weight version set",
    );
    return { backend };
  });

import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { ZBackendId, ZBackendResponse, ZWeightVersion } from "./backend.schema";
import { requireBackends } from "./require-backends";

export const ZSetWeightVersionRequest = z
  .object({
    id: ZBackendId,
    /** The weight version the backend serves from now on (e.g. `step-120`); null when unknown. */
    weightVersion: ZWeightVersion,
  })
  .strict();
export const ZSetWeightVersionResponse = ZBackendResponse;

/**
 * Records the weight version a backend now serves (after the trainer pushed new weights to it).
 * Turns generated from now on carry it. Admin only.
 */
export const setWeightVersion = adminProcedure
  .input(ZSetWeightVersionRequest)
  .output(ZSetWeightVersionResponse)
  .mutation(({ ctx, input }) => {
    const backend = requireBackends(ctx).registry.setWeightVersion(input.id, input.weightVersion);
    ctx.logger.info(
      { backendId: input.id, weightVersion: input.weightVersion },
      "backend weight version set",
    );
    return { backend };
  });

import { adminProcedure } from "../../trpc";
import { ZBackendIdRequest, ZBackendResponse } from "./backend.schema";
import { requireBackends } from "./require-backends";

export const ZRemoveBackendRequest = ZBackendIdRequest;
/** The backend's last view before it was forgotten. */
export const ZRemoveBackendResponse = ZBackendResponse;

/**
 * Forgets a backend. Its in-flight turns still finish; its jobs move to another backend on their
 * next turn. Admin only.
 */
export const remove = adminProcedure
  .input(ZRemoveBackendRequest)
  .output(ZRemoveBackendResponse)
  .mutation(({ ctx, input }) => {
    const backend = requireBackends(ctx).registry.removeBackend(input.id);
    ctx.logger.info({ backendId: input.id, inFlight: backend.inFlight }, "backend removed");
    return { backend };
  });

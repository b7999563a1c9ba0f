import { adminProcedure } from "../../trpc";
import { ZBackendIdRequest, ZBackendResponse } from "./backend.schema";
import { requireBackends } from "./require-backends";

export const ZDrainBackendRequest = ZBackendIdRequest;
export const ZDrainBackendResponse = ZBackendResponse;

/** The backend finishes its in-flight turns and gets no new jobs; its jobs move on their next turn. Admin only. */
export const drain = adminProcedure
  .input(ZDrainBackendRequest)
  .output(ZDrainBackendResponse)
  .mutation(({ ctx, input }) => {
    const backend = requireBackends(ctx).registry.drainBackend(input.id);
    ctx.logger.info({ backendId: input.id, inFlight: backend.inFlight }, "backend draining");
    return { backend };
  });

import { adminProcedure } from "../../trpc";
import { ZBackendIdRequest, ZBackendResponse } from "./backend.schema";
import { requireBackends } from "./require-backends";

const ZDrainBackendRequest = ZBackendIdRequest;
const ZDrainBackendResponse = ZBackendResponse;

/** The backend finishes its in-flight turns and gets no new jobs; its jobs move on their next turn. Admin only. */
export const drain = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/backends/{id}/drain",
      operationId: "drainBackend",
      summary: "Drain a backend: in-flight turns finish, no new jobs go to it (admin).",
      description:
        "The backend finishes its in-flight turns and takes no new jobs; jobs that stuck to it move to another backend on their next turn. Undo with resume. 404 for an unknown id; 503 without an inference pool.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZDrainBackendRequest)
  .output(ZDrainBackendResponse)
  .mutation(async ({ ctx, input }) => {
    const backend = await requireBackends(ctx).registry.drainBackend(input.id);
    ctx.logger.info({ backendId: input.id, inFlight: backend.inFlight }, "backend draining");
    return { backend };
  });

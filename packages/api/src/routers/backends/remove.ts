import { adminProcedure } from "../../trpc";
import { ZBackendIdRequest, ZBackendResponse } from "./backend.schema";
import { requireBackends } from "./require-backends";

const ZRemoveBackendRequest = ZBackendIdRequest;
/** The backend's last view before it was forgotten. */
const ZRemoveBackendResponse = ZBackendResponse;

/**
 * Forgets a backend. Its in-flight turns still finish; its jobs move to another backend on their
 * next turn. Admin only.
 */
export const remove = adminProcedure
  .meta({
    openapi: {
      method: "DELETE",
      path: "/api/v1/backends/{id}",
      operationId: "removeBackend",
      summary: "Forget a backend; its in-flight turns finish, its jobs move on their next turn (admin).",
      description:
        "Removes the backend from the pool and answers with its last view. Its in-flight turns still finish; its jobs move to another backend on their next turn. 404 for an unknown id; 503 without an inference pool.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZRemoveBackendRequest)
  .output(ZRemoveBackendResponse)
  .mutation(async ({ ctx, input }) => {
    const backend = await requireBackends(ctx).registry.removeBackend(input.id);
    ctx.logger.info({ backendId: input.id, inFlight: backend.inFlight }, "backend removed");
    return { backend };
  });

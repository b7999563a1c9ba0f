import { adminProcedure } from "../../trpc";
import { ZBackendIdRequest, ZBackendResponse } from "./backend.schema";
import { requireBackends } from "./require-backends";

const ZResumeBackendRequest = ZBackendIdRequest;
const ZResumeBackendResponse = ZBackendResponse;

/** Undoes a drain: the backend takes new jobs again. Admin only. */
export const resume = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/backends/{id}/resume",
      operationId: "resumeBackend",
      summary: "Undo a drain: the backend takes new jobs again (admin).",
      description:
        "A drained or draining backend takes new jobs again. 404 for an unknown id; 503 without an inference pool.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZResumeBackendRequest)
  .output(ZResumeBackendResponse)
  .mutation(async ({ ctx, input }) => {
    const backend = await requireBackends(ctx).registry.resumeBackend(input.id);
    ctx.logger.info({ backendId: input.id }, "backend resumed");
    return { backend };
  });

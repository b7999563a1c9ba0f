import { adminProcedure } from "../../trpc";
import { ZBackendIdRequest, ZBackendResponse } from "./backend.schema";
import { requireBackends } from "./require-backends";

export const ZResumeBackendRequest = ZBackendIdRequest;
export const ZResumeBackendResponse = ZBackendResponse;

/** Undoes a drain: the backend takes new jobs again. Admin only. */
export const resume = adminProcedure
  .input(ZResumeBackendRequest)
  .output(ZResumeBackendResponse)
  .mutation(({ ctx, input }) => {
    const backend = requireBackends(ctx).registry.resumeBackend(input.id);
    ctx.logger.info({ backendId: input.id }, "backend resumed");
    return { backend };
  });

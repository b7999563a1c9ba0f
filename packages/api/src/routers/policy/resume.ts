import { ZPolicyState, ZResumeRequest } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requirePolicy } from "../runs/require-batches";

/** Resumes generation, first recording the new weight version when one is given. Trainer or admin. */
export const resume = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/policy/resume",
      operationId: "resumePolicy",
      summary: "Resume generation after a weight sync, optionally with the new weight version (trainer).",
      description:
        "Records `weightVersion` first when given (a lower one than the current is a 409 and nothing changes), then lets generation go on; aborted generation continues from its tokens. Resuming a running policy is a no-op. 503 when the server runs no policy control.",
      errors: ["CONFLICT", "UNAVAILABLE"],
      example: { weightVersion: 122 },
    },
  })
  .input(ZResumeRequest)
  .output(ZPolicyState)
  .mutation(async ({ ctx, input }) => {
    const state = await requirePolicy(ctx).resume(input);
    ctx.logger.info({ weightVersion: state.weightVersion }, "policy resumed");
    return state;
  });

import { ZPolicyState, ZResumeRequest } from "@raas/shared";
import { trainerProcedure } from "../../trpc";
import { requirePolicyWriter } from "./require-policy-writer";

/** Resumes one policy's generation, first recording its new weight version when one is given. Owner or admin. */
export const resume = trainerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/policy/resume",
      operationId: "resumePolicy",
      summary:
        "Resume a policy's generation after a weight sync, optionally with the new weight version (trainer).",
      description:
        "Records `weightVersion` first when given (a lower one than the policy's current is a 409 and nothing changes), then lets the policy's generation go on; aborted generation continues from its tokens. Resuming a running policy is a no-op. `policyId` names the policy (default: the default policy); only its owner's token or an admin token may resume it (403 otherwise). 503 when the server runs no policy control.",
      errors: ["CONFLICT", "UNAVAILABLE", "FORBIDDEN"],
      example: { weightVersion: 122 },
    },
  })
  .input(ZResumeRequest)
  .output(ZPolicyState)
  .mutation(async ({ ctx, input }) => {
    const state = await (await requirePolicyWriter(ctx, input.policyId)).resume(input);
    ctx.logger.info({ policyId: state.policyId, weightVersion: state.weightVersion }, "policy resumed");
    return state;
  });

import { requestFailure, ZGatewayTraces, ZId } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireJobReader } from "./job-access";

const ZGatewayTracesRequest = z
  .object({ jobId: ZId.describe("The job whose gateway calls to rebuild.") })
  .strict()
  .meta({ description: "The job whose gateway traces to read." });

/** A job's model calls through the inference gateway as training streams, with their certificate. */
export const gatewayTraces = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/jobs/{jobId}/gateway-traces",
      operationId: "getGatewayTraces",
      summary: "A job's inference-gateway calls as token-exact training streams, with a certificate.",
      description:
        "For jobs whose agent is a harness calling `/gateway/<session token>/v1/chat/completions`: the recorded calls " +
        "grouped into chains by token prefix (sub-agents and parallel calls apart), each chain one stream of the model's " +
        "sampled ids (loss mask 1, logprobs aligned) and the ids in between (mask 0). The certificate says whether every " +
        "chain is token-exact and, where a call did not continue its chain exactly (history rewritten or truncated, an " +
        "answer re-rendered), the exact token position; a broken chain is split, never stitched. A job without gateway " +
        "calls has no chains. With `RAAS_REQUIRE_VIEWER_TOKEN` on, a trainer token reads only its own jobs' (403 otherwise; viewer and admin tokens read all). 404 for an unknown job; 503 when the server runs no gateway.",
      errors: ["NOT_FOUND", "UNAVAILABLE", "FORBIDDEN"],
    },
  })
  .input(ZGatewayTracesRequest)
  .output(ZGatewayTraces)
  .query(async ({ ctx, input }) => {
    if (!ctx.gateway) throw requestFailure("UNAVAILABLE", "this server runs no inference gateway");
    await requireJobReader(ctx, input.jobId);
    return ctx.gateway.buildTraces(input.jobId);
  });

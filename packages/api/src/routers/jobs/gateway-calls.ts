import { requestFailure, ZGatewayCallPage, ZId } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { toGatewayCallView } from "./gateway-call-view";
import { requireJobReader } from "./job-access";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

const ZGatewayCallsRequest = z
  .object({
    jobId: ZId.describe("The job whose gateway calls to list."),
    afterSeq: z.coerce
      .number()
      .int()
      .min(-1)
      .default(-1)
      .describe("List the calls after this one (`seq`); -1 (default) from the first."),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_LIMIT)
      .default(DEFAULT_LIMIT)
      .describe(`The most calls in the page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
  })
  .strict()
  .meta({ description: "A page of a job's gateway calls." });

/** A job's model calls through the gateway as the harness made them, in its own API shape. */
export const gatewayCalls = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/jobs/{jobId}/gateway-calls",
      operationId: "listGatewayCalls",
      summary: "A job's inference-gateway calls in the API shape the harness used.",
      description:
        "Each model call a harness made through the job's gateway, in arrival order: the API shape (`chat.completions`, " +
        "`anthropic.messages`, `openai.responses`), the harness's User-Agent, what it sent after its last assistant turn " +
        "and the answer it got — both in that shape — with token counts, latency and the gateway's overhead. Token ids are " +
        "in `gateway-traces`. Paged by `afterSeq`/`limit`. With `RAAS_REQUIRE_VIEWER_TOKEN` on, a trainer token reads only " +
        "its own jobs' (403 otherwise). 404 for an unknown job; 503 when the server runs no gateway.",
      errors: ["NOT_FOUND", "UNAVAILABLE", "FORBIDDEN"],
    },
  })
  .input(ZGatewayCallsRequest)
  .output(ZGatewayCallPage)
  .query(async ({ ctx, input }) => {
    if (!ctx.gateway) throw requestFailure("UNAVAILABLE", "this server runs no inference gateway");
    await requireJobReader(ctx, input.jobId);
    const calls = await ctx.gateway.listCalls(input.jobId);
    const after = calls.filter((call) => call.seq > input.afterSeq);
    const page = after.slice(0, input.limit);
    const last = page.at(-1);
    return {
      calls: page.map(toGatewayCallView),
      total: calls.length,
      nextAfterSeq: after.length > page.length && last ? last.seq : null,
    };
  });

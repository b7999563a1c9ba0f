import { ZId, ZTrajectoryExport } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireJobReader } from "./job-access";

const ZExportRequest = z
  .object({ jobId: ZId.describe("The job whose trajectory to export.") })
  .strict()
  .meta({ description: "The job to export." });
const ZExportResponse = ZTrajectoryExport;

/** The token-in/token-out property, as every export operation states it. */
export const TOKEN_EXACT_TEXT =
  "Token-in/token-out: RaaS keeps each conversation as token ids. Every turn's prompt ids are the previous turn's " +
  "prompt ids followed by its response ids and then the newly templated observation ids — never a re-tokenization " +
  "of earlier text — so the flat `tokens` stream is exactly what the model saw and sampled. Every export checks this " +
  "on the stored turns: `tokenExact: true` when it holds; otherwise `tokens` stops before the first breaking turn and " +
  "`tokenBreak` says where (such a trajectory should not be trained on as if exact).";

/** One job's trajectory as a trainer feeds it to its loss (flat tokens, loss mask, logprobs). */
export const exportJob = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/jobs/{jobId}/export",
      operationId: "exportTrajectory",
      summary: "One job's trajectory for training: flat tokens, loss mask, aligned logprobs, reward.",
      description:
        "Returns one row: the flat token stream (first prompt, then sampled and observation/template ids interleaved), " +
        "`lossMask` (1 on sampled tokens, 0 on prompt and observations), `logprobs` aligned to `tokens` (null where the " +
        "mask is 0), `versions` (the integer weight version per token, -1 off the sampled tokens), `topLogprobs` (the top-k " +
        "alternatives per sampled token, when the job asked for them with `agent.topLogprobs`), per-turn spans with weight version and backend, reward, trainable flag, failure kind, stage timings " +
        `and the job's metadata. Export only terminal jobs for training; a running job exports what is stored so far. ${TOKEN_EXACT_TEXT} ` +
        "With `RAAS_REQUIRE_VIEWER_TOKEN` on, a trainer token reads only its own jobs' (403 otherwise; viewer and admin tokens read all). 404 for an unknown job.",
      errors: ["NOT_FOUND", "FORBIDDEN"],
    },
  })
  .input(ZExportRequest)
  .output(ZExportResponse)
  .query(async ({ ctx, input }) => {
    await requireJobReader(ctx, input.jobId);
    return ctx.engine.exportTrajectory(input.jobId);
  });

import { ZId, ZToolCall, ZTurn } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireJobReader } from "./job-access";

const ZTrajectoryRequest = z
  .object({ jobId: ZId.describe("The job whose trajectory to read.") })
  .strict()
  .meta({ description: "The job to read." });
const ZTrajectoryResponse = z
  .object({
    turns: z.array(ZTurn).describe("The model turns in order."),
    toolCalls: z.array(ZToolCall).describe("The tool calls in turn order."),
  })
  .meta({ description: "A job's recorded turns and tool calls." });

/** The turns (token ids, logprobs) and tool calls recorded for a job. */
export const trajectory = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/jobs/{jobId}/trajectory",
      operationId: "getTrajectory",
      summary: "The turns (token ids, logprobs) and tool calls of a job.",
      description:
        "Everything recorded of the job's agent loop so far: each turn's exact prompt and response token ids with logprobs, backend and weight version, and each tool call with its arguments and observation. For a training-ready row use `exportTrajectory`. With `RAAS_REQUIRE_VIEWER_TOKEN` on, a trainer token reads only its own jobs' (403 otherwise; viewer and admin tokens read all). 404 when no job has this id.",
      errors: ["FORBIDDEN"],
    },
  })
  .input(ZTrajectoryRequest)
  .output(ZTrajectoryResponse)
  .query(async ({ ctx, input }) => {
    await requireJobReader(ctx, input.jobId);
    return ctx.engine.getTrajectory(input.jobId);
  });

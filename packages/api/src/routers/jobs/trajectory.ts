import { ZToolCall, ZTurn } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

export const ZTrajectoryRequest = z.object({ jobId: z.string().min(1).max(200) }).strict();
export const ZTrajectoryResponse = z.object({ turns: z.array(ZTurn), toolCalls: z.array(ZToolCall) });

/** The turns (token ids, logprobs) and tool calls recorded for a job. */
export const trajectory = viewerProcedure
  .input(ZTrajectoryRequest)
  .output(ZTrajectoryResponse)
  .query(({ ctx, input }) => ctx.engine.getTrajectory(input.jobId));

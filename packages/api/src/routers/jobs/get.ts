import { ZJob } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

export const ZGetRequest = z.object({ id: z.string().min(1).max(200) }).strict();
export const ZGetResponse = ZJob;

/** One job by id; `NOT_FOUND` when there is none. */
export const get = viewerProcedure
  .input(ZGetRequest)
  .output(ZGetResponse)
  .query(({ ctx, input }) => ctx.engine.getJob(input.id));

import { ZId, ZJob } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";

const ZGetRequest = z
  .object({ id: ZId.describe("The job's id.") })
  .strict()
  .meta({ description: "The job to read." });
const ZGetResponse = ZJob;

/** One job by id; `NOT_FOUND` when there is none. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/jobs/{id}",
      operationId: "getJob",
      summary: "Get one job by id.",
      description:
        "The job's status, stage, failure, reward, result and timings. 404 when no job has this id.",
    },
  })
  .input(ZGetRequest)
  .output(ZGetResponse)
  .query(({ ctx, input }) => ctx.engine.getJob(input.id));

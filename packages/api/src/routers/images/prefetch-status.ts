import { imagePrefetchStatus } from "@raas/engine";
import { requestFailure } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireWorkers } from "../workers/require-workers";
import { ZImagePrefetchProgressView } from "./image.schema";

const ZPrefetchStatusRequest = z
  .object({ requestId: z.string().min(1).max(100).describe("The id images.prefetch answered with.") })
  .strict()
  .meta({ description: "The prefetch to follow." });

const ZPrefetchStatusResponse = z
  .object({
    requestId: z.string().describe("The prefetch's id, as images.prefetch answered it."),
    isFinished: z.boolean().describe("True once every image is done or failed on every worker asked."),
    entries: z
      .array(
        z.object({
          workerId: z.string().describe("The worker asked to unpack the image."),
          workerStatus: z
            .enum(["active", "draining", "stopped", "lost"])
            .describe("The worker's state now: a stopped or lost worker will not finish."),
          progress: ZImagePrefetchProgressView,
        }),
      )
      .describe("One per worker asked and image, in the order the workers registered."),
  })
  .meta({ description: "Where a prefetch stands on each worker." });

/** Where a prefetch stands on each worker asked, as their heartbeats reported it. */
export const prefetchStatus = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/images/prefetch/{requestId}",
      operationId: "getImagePrefetch",
      summary: "Where an image prefetch stands on each worker.",
      description:
        "Per worker asked and image: pending, unpacking, done (with whether it was cached and the unpack time) or failed (with why), as of each worker's last heartbeat. 404 for an unknown request; 503 without a worker registry.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZPrefetchStatusRequest)
  .output(ZPrefetchStatusResponse)
  .query(async ({ ctx, input }) => {
    const workers = await requireWorkers(ctx).list({ includeStopped: true });
    const entries = imagePrefetchStatus(workers, input.requestId);
    if (entries.length === 0) {
      throw requestFailure(
        "NOT_FOUND",
        `no image prefetch with id "${input.requestId}" (workers keep their last 32); start one with images.prefetch`,
      );
    }
    const isFinished = entries.every(
      ({ progress, workerStatus }) =>
        progress.status === "done" ||
        progress.status === "failed" ||
        workerStatus === "stopped" ||
        workerStatus === "lost",
    );
    return { requestId: input.requestId, isFinished, entries };
  });

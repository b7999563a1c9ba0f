import { randomUUID } from "node:crypto";
import { requestFailure } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { requireWorkers } from "../workers/require-workers";
import { ZImageReference } from "./image.schema";

const ZWorkerIdList = z
  .array(z.string().min(1).max(300))
  .min(1, { error: "name at least one worker, or leave `workers` out for every active one" })
  .max(1_000);

const ZPrefetchImagesRequest = z
  .object({
    images: z
      .array(ZImageReference)
      .min(1, { error: "name at least one image to prefetch" })
      .max(32, { error: "at most 32 images per prefetch" })
      .describe("The images to unpack into the workers' caches (1 to 32)."),
    workers: ZWorkerIdList.optional().describe(
      "Worker ids to prefetch on (active or draining). Default: every active worker.",
    ),
  })
  .strict()
  .meta({ description: "Images to unpack on workers ahead of a run." });

const ZPrefetchImagesResponse = z
  .object({
    requestId: z
      .string()
      .describe("Follow it with images.prefetchStatus (GET /api/v1/images/prefetch/{requestId})."),
    images: z.array(z.string()).describe("The images asked for, without repeats."),
    workers: z.array(z.string()).describe("The workers asked to unpack them."),
    requestedAtMs: z.number().describe("When it was asked, ms since the Unix epoch."),
  })
  .meta({ description: "The prefetch, recorded for each worker." });

/**
 * Asks workers to unpack images into their caches before a run needs them. Each worker reads the
 * request back with its next heartbeat (every few seconds), unpacks the images one at a time and
 * reports progress with the following beats. Admin only.
 */
export const prefetch = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/images/prefetch",
      operationId: "prefetchImages",
      summary: "Unpack images into workers' caches ahead of a run (admin).",
      description:
        "Records the request for the named workers (default every active one); each picks it up with its next heartbeat and unpacks the images one at a time. Progress: images.prefetchStatus. 400 for a bad image path, 404 for an unknown worker, 409 for a worker that stopped or was lost or when no worker is active, 503 without a worker registry.",
      errors: ["UNAVAILABLE"],
      example: { images: ["/shared/images/swe/django__django-4.2.oci"] },
    },
  })
  .input(ZPrefetchImagesRequest)
  .output(ZPrefetchImagesResponse)
  .mutation(async ({ ctx, input }) => {
    const store = requireWorkers(ctx);
    const known = await store.list({ includeStopped: true });
    let workerIds: string[];
    if (input.workers) {
      workerIds = [...new Set(input.workers)];
      const unknown = workerIds.filter((id) => !known.some((worker) => worker.id === id));
      if (unknown.length > 0) {
        throw requestFailure(
          "NOT_FOUND",
          `no worker with id ${unknown.map((id) => `"${id}"`).join(", ")}; list them with workers.list (GET /api/v1/workers)`,
        );
      }
      const gone = known.filter(
        (worker) =>
          workerIds.includes(worker.id) && worker.status !== "active" && worker.status !== "draining",
      );
      if (gone.length > 0) {
        throw requestFailure(
          "CONFLICT",
          `worker ${gone.map((worker) => `"${worker.id}" is ${worker.status}`).join(", ")}: only active or draining workers can prefetch`,
        );
      }
    } else {
      workerIds = known.filter((worker) => worker.status === "active").map((worker) => worker.id);
      if (workerIds.length === 0) {
        throw requestFailure("CONFLICT", "no worker is active, so none could prefetch; start a worker first");
      }
    }
    const request = {
      requestId: randomUUID(),
      references: [...new Set(input.images)],
      requestedAtMs: Date.now(),
    };
    const recorded = await store.requestPrefetch(workerIds, request);
    ctx.logger.info(
      { requestId: request.requestId, images: request.references, workers: recorded },
      "image prefetch requested",
    );
    return {
      requestId: request.requestId,
      images: request.references,
      workers: recorded,
      requestedAtMs: request.requestedAtMs,
    };
  });

import { IMAGE_PREFETCH_STATUSES } from "@raas/engine";
import { hasControlCharacter } from "@raas/shared";
import { z } from "zod";

const ZHeldImage = z
  .object({
    key: z.string().describe("Its content key (digest-derived), e.g. `oci-<sha256>`."),
    references: z.array(z.string()).describe("References known to name it (image paths on the worker)."),
    sizeBytes: z.number().describe("Bytes of its unpacked root filesystem."),
    unpackMs: z.number().nullable().describe("How long unpacking it took, in ms; null when not recorded."),
    hits: z
      .number()
      .int()
      .describe("Sandbox creates (and prefetches) on this worker that found it unpacked."),
    misses: z.number().int().describe("Those that had to unpack it."),
  })
  .meta({ id: "HeldImage", description: "One image a worker's cache holds unpacked." });

/** Where one image of one prefetch request stands on one worker. */
export const ZImagePrefetchProgressView = z
  .object({
    requestId: z.string().describe("The `images.prefetch` request it belongs to."),
    reference: z.string().describe("The image."),
    status: z
      .enum(IMAGE_PREFETCH_STATUSES)
      .describe(
        "`pending`: not started (or the worker has not heartbeated since); `unpacking`; `done`; `failed` (see `error`).",
      ),
    wasCached: z.boolean().nullable().describe("Whether it was already unpacked there; null until done."),
    unpackMs: z
      .number()
      .nullable()
      .describe("How long unpacking took, in ms; null unless this prefetch unpacked it."),
    error: z.string().nullable().describe("Why it failed, in a sentence; null unless failed."),
    updatedAtMs: z.number().describe("When the worker last changed this status, ms since the Unix epoch."),
  })
  .meta({ id: "ImagePrefetchProgress", description: "One image of one prefetch on one worker." });

/** A worker's image cache as it reported it with its last heartbeat. */
export const ZWorkerImagesView = z
  .object({
    capBytes: z
      .number()
      .describe("Bytes of unpacked images it keeps before evicting the least recently used."),
    usedBytes: z.number().describe("Bytes its unpacked images occupy."),
    hits: z.number().int().describe("Image uses since it started that found the image unpacked."),
    misses: z.number().int().describe("Image uses since it started that unpacked the image (or failed to)."),
    evictions: z.number().int().describe("Images it evicted since it started."),
    images: z.array(ZHeldImage).describe("The images held unpacked, largest first."),
    prefetches: z.array(ZImagePrefetchProgressView).describe("Its recent prefetches, most recent first."),
  })
  .meta({
    id: "WorkerImages",
    description: "A worker's image cache: what it holds, its size, hits and unpack times.",
  });

/** An image path as a worker opens it. */
export const ZImageReference = z
  .string()
  .min(1, { error: "an image reference must not be empty" })
  .max(4_096)
  .refine((value) => value.startsWith("/") && !hasControlCharacter(value), {
    message:
      "an image is an absolute path on the workers (an OCI layout directory or archive, a docker save archive or a SIF file)",
  })
  .describe(
    "An absolute path on the workers: an OCI layout directory or archive, a docker save archive or a SIF file.",
  );

import { z } from "zod";

/** One image a worker's cache holds unpacked. */
const ZWorkerHeldImage = z.object({
  key: z.string(),
  references: z.array(z.string()),
  sizeBytes: z.number(),
  unpackMs: z.number().nullable(),
  hits: z.number(),
  misses: z.number(),
});

export const IMAGE_PREFETCH_STATUSES = ["pending", "unpacking", "done", "failed"] as const;

/** Where one image of one prefetch request stands on one worker. */
const ZImagePrefetchProgress = z.object({
  requestId: z.string(),
  reference: z.string(),
  status: z.enum(IMAGE_PREFETCH_STATUSES),
  /** Whether the image was already unpacked when the worker came to it. */
  wasCached: z.boolean().nullable(),
  unpackMs: z.number().nullable(),
  error: z.string().nullable(),
  updatedAtMs: z.number(),
});
export type TImagePrefetchProgress = z.infer<typeof ZImagePrefetchProgress>;

/** A worker's image cache as it reported it with its last heartbeat. */
export const ZWorkerImages = z.object({
  capBytes: z.number(),
  usedBytes: z.number(),
  hits: z.number(),
  misses: z.number(),
  evictions: z.number(),
  images: z.array(ZWorkerHeldImage),
  /** The prefetches it was asked for, most recent first. */
  prefetches: z.array(ZImagePrefetchProgress),
});
export type TWorkerImages = z.infer<typeof ZWorkerImages>;

/** A prefetch asked of a worker (`images.prefetch`): unpack these images into its cache. */
const ZImagePrefetchRequest = z.object({
  requestId: z.string(),
  references: z.array(z.string()),
  requestedAtMs: z.number(),
});
export type TImagePrefetchRequest = z.infer<typeof ZImagePrefetchRequest>;
export const ZImagePrefetchRequests = z.array(ZImagePrefetchRequest);

/** How many prefetch requests a worker record keeps (the oldest are dropped). */
export const MAX_STORED_PREFETCH_REQUESTS = 32;

import { ZStage } from "@raas/shared";
import { z } from "zod";

/** What a BullMQ job's `data` holds for one queue item; validated on every read from Redis. */
export const ZQueueEntry = z.object({
  jobId: z.string().min(1),
  stage: ZStage,
  priority: z.number(),
  workerId: z.string().min(1).nullable(),
  /** `QueueItem.image`; absent in entries written before image-aware placement. */
  image: z.string().min(1).nullable().optional(),
  /** Enqueue order (ms × 1,000 + a process counter): FIFO within a priority across queues. */
  seq: z.number().int().nonnegative(),
});
export type TQueueEntry = z.infer<typeof ZQueueEntry>;

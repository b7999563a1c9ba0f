import { createHash } from "node:crypto";
import type { TStage } from "@raas/shared";

/**
 * BullMQ orders priorities low-first in 1..2^21 (0 means "no priority" and would jump ahead of
 * every prioritized job). RaaS priorities are higher-first integers in ±1,000,000 (the submit
 * schema), so they map to `OFFSET - priority`: 48,576..2,048,576. Values beyond the bounds are
 * clamped, fractions rounded; BullMQ keeps FIFO within one value.
 */
const PRIORITY_OFFSET = 1_048_576;
const BULL_PRIORITY_MAX = 2_097_151;

export function toBullPriority(priority: number): number {
  const mapped = Math.round(PRIORITY_OFFSET - priority);
  return Math.min(BULL_PRIORITY_MAX, Math.max(1, Number.isFinite(mapped) ? mapped : PRIORITY_OFFSET));
}

/** The queue every worker of `stage` may take from. */
export function sharedQueueName(stage: TStage): string {
  return stage;
}

/**
 * The queue of items addressed to one worker. BullMQ forbids `:` in queue names and uses it in
 * keys, so the worker id is URI-encoded (`:` → `%3A`).
 */
export function addressedQueueName(stage: TStage, workerId: string): string {
  return `${stage}@${encodeURIComponent(workerId)}`;
}

/**
 * The queue of shared items whose job runs on `image` (image-aware placement): named by a hash
 * of the image reference, which may be a long path full of characters BullMQ forbids.
 */
export function imageQueueName(stage: TStage, image: string): string {
  return `${stage}~${createHash("sha256").update(image).digest("hex").slice(0, 24)}`;
}

/**
 * How many items of one job a queue can hold apart: one waiting, the others leased by consumers
 * that may drop them (`RedisJobQueue.enqueue`). Beyond that, a rare one-off id nothing looks up.
 */
export const ITEM_SLOTS = 4;

/**
 * The BullMQ id of one item of a job in one queue: `j-<job>` in slot 0, `j-<job>#<slot>` after
 * (BullMQ ids must not be integers or contain `:`; the URI-encoded job id never holds `#`).
 */
export function toBullJobId(jobId: string, slot = 0): string {
  const id = `j-${encodeURIComponent(jobId)}`;
  return slot === 0 ? id : `${id}#${slot}`;
}

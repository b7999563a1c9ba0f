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

/** BullMQ job ids must not be integers or contain `:`; one job id per queue at a time. */
export function toBullJobId(jobId: string): string {
  return `j-${encodeURIComponent(jobId)}`;
}

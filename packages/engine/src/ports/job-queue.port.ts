import type { TStage } from "@raas/shared";

export interface QueueItem {
  jobId: string;
  stage: TStage;
  /** Higher first; ties in enqueue order. */
  priority: number;
}

/** A reserved item. The holder must `ack` or `nack` it before `leaseUntilMs`, or `extend`. */
export interface Lease {
  readonly item: QueueItem;
  readonly leaseId: string;
  /** How many times this item has been delivered, including this one. */
  readonly deliveries: number;
  readonly leaseUntilMs: number;
}

/**
 * Per-stage priority queues with leases. The in-memory adapter serves the embedded default; a
 * distributed adapter (Redis) re-delivers items whose lease expired (a worker died).
 */
export interface JobQueue {
  enqueue(item: QueueItem): Promise<void>;
  /**
   * Waits for the highest-priority item of `stage` and leases it for `leaseMs`.
   * Resolves `null` when `signal` aborts.
   */
  reserve(stage: TStage, leaseMs: number, signal: AbortSignal): Promise<Lease | null>;
  ack(lease: Lease): Promise<void>;
  /** Gives the item back (re-delivered after `delayMs`). */
  nack(lease: Lease, delayMs?: number): Promise<void>;
  extend(lease: Lease, leaseMs: number): Promise<Lease>;
  /** Removes a queued (not leased) item; true if it was queued. */
  remove(jobId: string, stage: TStage): Promise<boolean>;
  /** Items waiting (not leased) per stage. */
  depth(stage: TStage): Promise<number>;
  close(): Promise<void>;
}

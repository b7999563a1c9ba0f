import type { TStage } from "@raas/shared";

export interface QueueItem {
  jobId: string;
  stage: TStage;
  /** Higher first; ties in enqueue order. */
  priority: number;
  /**
   * The worker that must run this item because its job's sandbox lives there (RUN and EVAL after
   * an INIT on that worker). Absent or null: any worker may take it.
   */
  workerId?: string | null;
  /**
   * The image the job's sandboxes run on (`SandboxSpec.image`), for image-aware placement: a
   * worker that holds it unpacked is preferred (`ReserveOptions.images`). Absent or null: no image
   * of its own (the host's), any worker is as good.
   */
  image?: string | null;
}

export interface ReserveOptions {
  /**
   * The reserving worker: it gets the stage's shared items and the items addressed to it, never
   * items addressed to another worker.
   */
  workerId?: string;
  /**
   * Images the reserving worker holds unpacked (as `QueueItem.image` names them). Given, it takes
   * a shared item of one of them (or of no image) before a better-placed item of another image,
   * unless that item has waited `placementMaxWaitMs` (an option of the queue) or nothing it
   * holds is waiting: then it takes the best item, as without images. Absent: no preference.
   */
  images?: readonly string[];
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
  /**
   * Queues an item; the caller has stored the job's change first. The job is delivered after this
   * call: an item of it still waiting may stand for this one, a leased one never does (its holder
   * may have read the job before the change and drop it).
   */
  enqueue(item: QueueItem): Promise<void>;
  /**
   * Waits for the highest-priority item of `stage` and leases it for `leaseMs`.
   * Resolves `null` when `signal` aborts.
   */
  reserve(
    stage: TStage,
    leaseMs: number,
    signal: AbortSignal,
    options?: ReserveOptions,
  ): Promise<Lease | null>;
  ack(lease: Lease): Promise<void>;
  /** Gives the item back (re-delivered after `delayMs`). */
  nack(lease: Lease, delayMs?: number): Promise<void>;
  extend(lease: Lease, leaseMs: number): Promise<Lease>;
  /** Removes a queued (not leased) item; true if it was queued. */
  remove(jobId: string, stage: TStage): Promise<boolean>;
  /**
   * Removes and returns every item addressed to `workerId` (waiting, or leased by it), so that the
   * recovery of a dead worker can restart their jobs elsewhere. Shared items it had leased go back
   * to their queue at once (delivered again, as when a lease expires) and are not returned.
   */
  takeAddressedTo(workerId: string): Promise<QueueItem[]>;
  /**
   * True when the queue holds an item of `jobId` for `stage` — waiting, held back by a nack delay,
   * or leased — shared or addressed. Tells a restarted control plane which of the jobs stored as
   * queued for INIT it had released to the queue and which it had still held back.
   */
  holds(jobId: string, stage: TStage): Promise<boolean>;
  /** Items waiting (not leased) per stage, shared and addressed alike. */
  depth(stage: TStage): Promise<number>;
  close(): Promise<void>;
}

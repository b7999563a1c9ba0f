import type { TStage } from "@raas/shared";
import type { HandlerRegistry } from "../handler-registry";
import type { LiveJob } from "../lifecycle/live-job";
import type { JobQueue, Lease, QueueItem, ReserveOptions } from "../ports/job-queue.port";

/**
 * The engine's view of its queue: every shared item it queues carries its job's image
 * (`QueueItem.image`, from the handler's `imageOf`), so the queue can place it on a worker that
 * holds that image. Items addressed to a worker need none (their worker is fixed); an item
 * whose image is unknown goes without one.
 */
export class JobImageQueue implements JobQueue {
  constructor(
    private readonly queue: JobQueue,
    private readonly imageOf: (jobId: string) => string | undefined,
  ) {}

  enqueue(item: QueueItem): Promise<void> {
    if (item.workerId || item.image !== undefined) return this.queue.enqueue(item);
    const image = this.imageOf(item.jobId);
    return this.queue.enqueue(image === undefined ? item : { ...item, image });
  }

  reserve(
    stage: TStage,
    leaseMs: number,
    signal: AbortSignal,
    options?: ReserveOptions,
  ): Promise<Lease | null> {
    return this.queue.reserve(stage, leaseMs, signal, options);
  }

  ack(lease: Lease): Promise<void> {
    return this.queue.ack(lease);
  }

  nack(lease: Lease, delayMs?: number): Promise<void> {
    return this.queue.nack(lease, delayMs);
  }

  extend(lease: Lease, leaseMs: number): Promise<Lease> {
    return this.queue.extend(lease, leaseMs);
  }

  remove(jobId: string, stage: TStage): Promise<boolean> {
    return this.queue.remove(jobId, stage);
  }

  takeAddressedTo(workerId: string): Promise<QueueItem[]> {
    return this.queue.takeAddressedTo(workerId);
  }

  holds(jobId: string, stage: TStage): Promise<boolean> {
    return this.queue.holds(jobId, stage);
  }

  depth(stage: TStage): Promise<number> {
    return this.queue.depth(stage);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/**
 * The image a live job's sandboxes will run on, by its handler's `imageOf`; undefined when the
 * job is not live here, its handler names none, or cannot tell (INIT reports why).
 */
export function imageOfJob(handlers: HandlerRegistry, live: LiveJob | undefined): string | undefined {
  if (!live) return undefined;
  try {
    return handlers.get(live.record.kind).imageOf?.(live.payload, live.record);
  } catch {
    return undefined;
  }
}

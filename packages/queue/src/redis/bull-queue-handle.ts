import { type Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { TQueueEntry } from "./queue-entry.schema";
import { toBullPriority } from "./queue-names";
import type { TResolvedQueueOptions } from "./redis-queue-options";

export type TBullJob = Job<unknown>;

/** Where the next item of one BullMQ queue stands: lower `rank` first, then lower `seq`. */
export interface QueueHead {
  rank: number;
  seq: number;
}

/** Jobs that wait for a consumer (BullMQ's `wait` list holds re-delivered ones, taken first). */
const WAITING_STATES = ["wait", "prioritized"] as const;
/** The states an item leaves through `remove`: queued, or waiting out a nack delay. */
export const REMOVABLE_STATES = new Set(["wait", "waiting", "prioritized", "delayed"]);

/**
 * One BullMQ queue (a stage's shared queue or a stage's queue for one worker): a `Queue` for
 * producers and, once something reserves from it, a manually driven `Worker` (no processor) for
 * moving jobs to active under a lock and for BullMQ's stalled-job check that re-delivers items
 * whose lease expired.
 */
export class BullQueueHandle {
  readonly queue: Queue<unknown>;
  #worker: Worker<unknown> | undefined;

  constructor(
    readonly name: string,
    private readonly connection: Redis,
    private readonly options: TResolvedQueueOptions,
  ) {
    this.queue = new Queue(name, { connection, prefix: options.prefix });
    this.queue.on("error", (error) => options.onError(`queue ${name}: ${error.message}`, error));
  }

  get markerKey(): string {
    return this.queue.keys.marker as string;
  }

  /** Adds `entry` under `bullJobId`; a no-op when an item with that id exists. */
  async add(entry: TQueueEntry, bullJobId: string): Promise<void> {
    await this.queue.add("item", entry, {
      jobId: bullJobId,
      priority: toBullPriority(entry.priority),
      attempts: 1,
      // Nothing stays behind under the item's id: a later enqueue of the same job (a retry, a
      // recovery) would otherwise be taken for a duplicate. Failures are reported via onError.
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  /**
   * The next item's place without taking it; undefined when nothing waits. A nacked item whose
   * delay is over counts as waiting: BullMQ moves it back only when something takes from its
   * queue, so a reserve that took only from queues with a head would leave it held for good.
   */
  async head(): Promise<QueueHead | undefined> {
    const keys = this.queue.keys;
    const [waitId, prioritized, due] = await Promise.all([
      this.connection.lindex(keys.wait as string, -1),
      this.connection.zrange(keys.prioritized as string, "0", "0"),
      // BullMQ scores a delayed item `dueMs · 0x1000 + counter`: due now is below (now + 1) · 0x1000.
      this.connection.zrangebyscore(keys.delayed as string, 0, (Date.now() + 1) * 0x1000 - 1, "LIMIT", 0, 1),
    ]);
    const id = waitId ?? prioritized[0] ?? due[0];
    if (!id) return undefined;
    const [priority, data] = await this.connection.hmget(`${keys[""]}${id}`, "priority", "data");
    let seq = 0;
    try {
      seq = Number((JSON.parse(data ?? "{}") as { seq?: unknown }).seq) || 0;
    } catch {}
    // moveToActive takes the wait list (re-delivered items) before any prioritized item; a due
    // delayed item goes back to the wait list (priority 0) or among the prioritized ones.
    return { rank: waitId ? 0 : Number(priority) || 0, seq };
  }

  /** Moves the next item to active under a lock of `lockMs`; undefined when nothing is ready. */
  async take(token: string, lockMs: number): Promise<TBullJob | undefined> {
    const worker = this.#consumer(lockMs);
    const job = (await worker.getNextJob(token, { block: false })) ?? undefined;
    // The worker locks for the duration it was created with; a reserve asking another gets it.
    if (job && worker.opts.lockDuration !== lockMs) await job.extendLock(token, lockMs);
    return job;
  }

  async waitingCount(): Promise<number> {
    const counts = await this.queue.getJobCounts(...WAITING_STATES);
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  /** `unknown` when no item has that id. */
  async stateOf(bullJobId: string): Promise<string> {
    return this.queue.getJobState(bullJobId);
  }

  async getJob(bullJobId: string): Promise<TBullJob | undefined> {
    return ((await this.queue.getJob(bullJobId)) as TBullJob | undefined) ?? undefined;
  }

  async close(): Promise<void> {
    await this.#worker?.close(true);
    await this.queue.close();
  }

  #consumer(lockMs: number): Worker<unknown> {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.name, null, {
      connection: this.connection,
      prefix: this.options.prefix,
      autorun: false,
      lockDuration: lockMs,
      stalledInterval: this.options.stalledIntervalMs,
      maxStalledCount: this.options.maxLeaseExpiries,
    });
    worker.on("error", (error) => this.options.onError(`worker of ${this.name}: ${error.message}`, error));
    void worker.startStalledCheckTimer();
    this.#worker = worker;
    return worker;
  }
}

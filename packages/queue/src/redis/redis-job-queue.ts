import type { JobQueue, Lease, QueueItem, ReserveOptions } from "@raas/engine";
import { STAGES, type TStage } from "@raas/shared";
import { Redis } from "ioredis";
import { BullQueueHandle, REMOVABLE_STATES, type TBullJob } from "./bull-queue-handle";
import { isLostLeaseError } from "./lost-lease-error";
import { type TQueueEntry, ZQueueEntry } from "./queue-entry.schema";
import { addressedQueueName, ITEM_SLOTS, imageQueueName, sharedQueueName, toBullJobId } from "./queue-names";
import {
  type RedisJobQueueOptions,
  type TResolvedQueueOptions,
  withQueueDefaults,
} from "./redis-queue-options";
import { ReserveLoop, type ReserveSource, type Taken } from "./reserve-loop";
import { watchConnection } from "./watch-connection";

/** An item in these states is still in the queue: waiting, held back by a nack delay, or leased. */
const HELD_STATES = new Set([...REMOVABLE_STATES, "active"]);

/** How the lock tokens of a worker's reserves begin. */
const lockOwner = (workerId: string | undefined) => `${encodeURIComponent(workerId ?? "")}|`;

interface HeldLease {
  job: TBullJob;
  handle: BullQueueHandle;
  token: string;
}

/** Reads back what BullMQ stored; a malformed entry is reported and failed, never handed out. */
async function parseTaken(
  taken: Taken,
  onError: TResolvedQueueOptions["onError"],
): Promise<TQueueEntry | null> {
  const { job, token, handle } = taken;
  const parsed = ZQueueEntry.safeParse(job.data);
  const reason =
    job.deferredFailure ?? (parsed.success ? undefined : `malformed entry: ${parsed.error.message}`);
  if (reason === undefined && parsed.success) return parsed.data;
  onError(`dropped job ${job.id} of queue ${handle.name}: ${reason}`);
  await job.moveToFailed(new Error(reason), token, false).catch((error: unknown) => {
    onError(`could not fail job ${job.id} of queue ${handle.name}`, error);
  });
  return null;
}

/**
 * `JobQueue` on BullMQ: one queue per stage plus one per stage and addressed worker, so a worker
 * reserving sees the stage's shared items and its own. Leases are BullMQ job locks (`extend`
 * renews them); a lease that expires (its holder died) is found by BullMQ's stalled check and the
 * item delivered again with `deliveries` + 1, up to `maxLeaseExpiries` times.
 */
export class RedisJobQueue implements JobQueue {
  readonly #options: TResolvedQueueOptions;
  readonly #redis: Redis;
  readonly #blocking: Redis[] = [];
  readonly #handles = new Map<string, BullQueueHandle>();
  readonly #loops = new Map<string, ReserveLoop<Lease>>();
  readonly #held = new Map<string, HeldLease>();
  /** Images with a queue of their own per stage, as last read from Redis (or added here). */
  readonly #images = new Map<TStage, Set<string>>();
  #tokenSeq = 0;
  #enqueueSeq = 0;
  #closed = false;

  constructor(options: RedisJobQueueOptions) {
    this.#options = withQueueDefaults(options);
    // BullMQ's blocking and script calls must not give up while Redis is away.
    this.#redis = new Redis(this.#options.url, {
      maxRetriesPerRequest: null,
      connectionName: `${this.#options.prefix}:raas-queue`,
    });
    watchConnection(this.#redis, "queue", this.#options.onError, () => this.#options.onRestored());
  }

  async enqueue(item: QueueItem): Promise<void> {
    if (this.#closed) return; // as the memory queue: a closed queue takes nothing
    const workerId = item.workerId ?? null;
    // Enqueue order for ties between the shared and a worker's queue: microsecond-ish wall time
    // (ms × 1,000 + a per-process counter) — no round trip, and clock skew only reorders ties.
    const seq = Date.now() * 1_000 + (this.#enqueueSeq++ % 1_000);
    const entry: TQueueEntry = {
      jobId: item.jobId,
      stage: item.stage,
      priority: item.priority,
      workerId,
      image: item.image ?? null,
      seq,
    };
    if (workerId === null && entry.image) return this.#addImageItem(entry, entry.image);
    if (workerId === null) return this.#addItem(this.#handle(sharedQueueName(item.stage)), entry);
    await this.#redis.sadd(this.#key(`addressed:${item.stage}`), workerId);
    await this.#addItem(this.#handle(addressedQueueName(item.stage, workerId)), entry);
  }

  /**
   * A shared item with an image goes to that image's queue (image-aware placement). The first
   * item of an image wakes the stage's blocked reservers, which do not watch its queue yet.
   */
  async #addImageItem(entry: TQueueEntry, image: string): Promise<void> {
    const isNew = (await this.#redis.sadd(this.#key(`images:${entry.stage}`), image)) === 1;
    this.#imagesOf(entry.stage).add(image);
    await this.#addItem(this.#handle(imageQueueName(entry.stage, image)), entry);
    if (isNew) await this.#redis.zadd(this.#handle(sharedQueueName(entry.stage)).markerKey, 0, "0");
  }

  /**
   * Adds the item unless one of the same job already waits in this queue: that one is taken after
   * this call, so its consumer judges it on the job as stored now (callers store a job's change
   * before they queue it). A leased item of the job does not count — its consumer may have read
   * the job before that change and drop it (a lost worker's INIT item, given back and taken at
   * once, while the recovery restarts the job) — so the new item takes the next free slot.
   */
  async #addItem(handle: BullQueueHandle, entry: TQueueEntry): Promise<void> {
    for (let slot = 0; slot < ITEM_SLOTS; slot += 1) {
      const bullJobId = toBullJobId(entry.jobId, slot);
      const state = await handle.stateOf(bullJobId);
      if (REMOVABLE_STATES.has(state)) return;
      // Added meanwhile by another enqueue: a duplicate, taken after this call as well.
      if (state === "unknown") return handle.add(entry, bullJobId);
    }
    this.#options.onError(`job ${entry.jobId} has ${ITEM_SLOTS} items leased in queue ${handle.name}`);
    await handle.add(entry, toBullJobId(entry.jobId, entry.seq));
  }

  reserve(
    stage: TStage,
    leaseMs: number,
    signal: AbortSignal,
    options: ReserveOptions = {},
  ): Promise<Lease | null> {
    if (this.#closed || signal.aborted) return Promise.resolve(null);
    const loop = this.#loop(stage, options.workerId);
    return new Promise((resolve) => {
      let gone = false;
      const leave = () => {
        gone = true;
        signal.removeEventListener("abort", leave);
        remove();
        resolve(null);
      };
      const remove = loop.add({
        leaseMs,
        ...(options.images ? { images: new Set(options.images) } : {}),
        isGone: () => gone || this.#closed,
        cancel: leave,
        resolve: (lease) => {
          signal.removeEventListener("abort", leave);
          resolve(lease);
        },
      });
      signal.addEventListener("abort", leave, { once: true });
    });
  }

  async ack(lease: Lease): Promise<void> {
    await this.#settle(lease, (held) => held.job.moveToCompleted(null, held.token, false));
  }

  async nack(lease: Lease, delayMs = 0): Promise<void> {
    await this.#settle(lease, (held) =>
      delayMs > 0
        ? held.job.moveToDelayed(Date.now() + delayMs, held.token)
        : held.job.moveToWait(held.token),
    );
  }

  async extend(lease: Lease, leaseMs: number): Promise<Lease> {
    const held = this.#held.get(lease.leaseId);
    const extended = held ? await held.job.extendLock(held.token, leaseMs).catch(() => 0) : 0;
    if (!held || !extended) {
      this.#held.delete(lease.leaseId);
      throw new Error(`lease ${lease.leaseId} of job ${lease.item.jobId} is no longer held`);
    }
    return { ...lease, leaseUntilMs: Date.now() + leaseMs };
  }

  async remove(jobId: string, stage: TStage): Promise<boolean> {
    let isRemoved = false;
    for (const handle of await this.#stageHandles(stage)) {
      for (let slot = 0; slot < ITEM_SLOTS; slot += 1) {
        const job = await handle.getJob(toBullJobId(jobId, slot));
        if (!job || !REMOVABLE_STATES.has(await job.getState())) continue;
        const removed = await job.remove().then(
          () => true,
          () => false, // taken (locked) in the meantime
        );
        isRemoved ||= removed;
      }
    }
    return isRemoved;
  }

  async takeAddressedTo(workerId: string): Promise<QueueItem[]> {
    const taken: QueueItem[] = [];
    for (const stage of STAGES) {
      const handle = this.#handle(addressedQueueName(stage, workerId));
      const jobs = await handle.queue.getJobs(["wait", "prioritized", "delayed", "active"]);
      // Force: the dead worker's leased items go too; their locks die with the queue.
      await handle.queue.obliterate({ force: true });
      await this.#redis.srem(this.#key(`addressed:${stage}`), workerId);
      for (const job of jobs) {
        const parsed = ZQueueEntry.safeParse(job.data);
        if (!parsed.success) {
          this.#options.onError(
            `dropped malformed job ${job.id} of queue ${handle.name}: ${parsed.error.message}`,
          );
          continue;
        }
        const { jobId, priority, image } = parsed.data;
        taken.push({ jobId, stage, priority, workerId, ...(image ? { image } : {}) });
      }
      for (const [leaseId, held] of this.#held) if (held.handle === handle) this.#held.delete(leaseId);
      for (const shared of await this.#sharedHandles(stage)) await this.#giveBackLeasedBy(shared, workerId);
    }
    return taken;
  }

  /** Shared items whose lock `workerId` holds go back to waiting (delivered again at once). */
  async #giveBackLeasedBy(handle: BullQueueHandle, workerId: string): Promise<void> {
    const owner = lockOwner(workerId);
    for (const job of await handle.queue.getJobs(["active"])) {
      const token = await this.#redis.get(`${handle.queue.keys[""]}${job.id}:lock`);
      if (!token?.startsWith(owner)) continue;
      await job.moveToWait(token).catch((error: unknown) => {
        if (!isLostLeaseError(error)) throw error;
      });
    }
  }

  async holds(jobId: string, stage: TStage): Promise<boolean> {
    for (const handle of await this.#stageHandles(stage)) {
      for (let slot = 0; slot < ITEM_SLOTS; slot += 1) {
        if (HELD_STATES.has(await handle.stateOf(toBullJobId(jobId, slot)))) return true;
      }
    }
    return false;
  }

  async depth(stage: TStage): Promise<number> {
    const counts = await Promise.all(
      (await this.#stageHandles(stage)).map((handle) => handle.waitingCount()),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const loop of this.#loops.values()) loop.close();
    // Ends the BZPOPMIN calls at once; the loops see `closed` and stop.
    for (const connection of this.#blocking) connection.disconnect();
    await Promise.all([...this.#handles.values()].map((handle) => handle.close()));
    this.#held.clear();
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #key(name: string): string {
    return `${this.#options.prefix}:raas:${name}`;
  }

  #handle(name: string): BullQueueHandle {
    let handle = this.#handles.get(name);
    if (!handle) {
      handle = new BullQueueHandle(name, this.#redis, this.#options);
      this.#handles.set(name, handle);
    }
    return handle;
  }

  async #stageHandles(stage: TStage): Promise<BullQueueHandle[]> {
    const workers = await this.#redis.smembers(this.#key(`addressed:${stage}`));
    const addressed = workers.map((w) => this.#handle(addressedQueueName(stage, w)));
    return [...(await this.#sharedHandles(stage)), ...addressed];
  }

  /** The stage's queues any worker takes from: the shared one and one per image. */
  async #sharedHandles(stage: TStage): Promise<BullQueueHandle[]> {
    await this.#refreshImages(stage);
    const images = [...this.#imagesOf(stage)].map((image) => this.#handle(imageQueueName(stage, image)));
    return [this.#handle(sharedQueueName(stage)), ...images];
  }

  #imagesOf(stage: TStage): Set<string> {
    let images = this.#images.get(stage);
    if (!images) {
      images = new Set();
      this.#images.set(stage, images);
    }
    return images;
  }

  async #refreshImages(stage: TStage): Promise<void> {
    const images = this.#imagesOf(stage);
    for (const image of await this.#redis.smembers(this.#key(`images:${stage}`))) images.add(image);
  }

  #loop(stage: TStage, workerId: string | undefined): ReserveLoop<Lease> {
    const key = `${stage} ${workerId ?? ""}`;
    let loop = this.#loops.get(key);
    if (loop) return loop;
    const fixed: ReserveSource[] = [{ handle: this.#handle(sharedQueueName(stage)) }];
    if (workerId !== undefined) fixed.push({ handle: this.#handle(addressedQueueName(stage, workerId)) });
    const sources = () => [
      ...fixed,
      ...[...this.#imagesOf(stage)].map((image) => ({
        handle: this.#handle(imageQueueName(stage, image)),
        image,
      })),
    ];
    const blocking = this.#redis.duplicate();
    watchConnection(blocking, `queue ${key} (blocking)`, this.#options.onError);
    this.#blocking.push(blocking);
    loop = new ReserveLoop<Lease>(sources, {
      blocking,
      maxBlockMs: this.#options.maxBlockMs,
      placementMaxWaitMs: this.#options.placementMaxWaitMs,
      refreshSources: () => this.#refreshImages(stage),
      // The lock names the reserving worker, so its recovery can give back the shared items it held.
      nextToken: () => `${lockOwner(workerId)}${process.pid}-${Date.now().toString(36)}-${++this.#tokenSeq}`,
      onError: this.#options.onError,
      toLease: (taken, leaseMs) => this.#toLease(taken, leaseMs),
    });
    this.#loops.set(key, loop);
    return loop;
  }

  async #toLease(taken: Taken, leaseMs: number): Promise<Lease | null> {
    const entry = await parseTaken(taken, this.#options.onError);
    if (!entry) return null;
    if (leaseMs !== taken.lockMs) await taken.job.extendLock(taken.token, leaseMs);
    const { jobId, stage, priority, workerId, image } = entry;
    const leaseId = `${taken.handle.name}|${taken.job.id}|${taken.token}`;
    this.#held.set(leaseId, { job: taken.job, handle: taken.handle, token: taken.token });
    return {
      item: { jobId, stage, priority, workerId, ...(image ? { image } : {}) },
      leaseId,
      deliveries: taken.job.attemptsStarted,
      leaseUntilMs: Date.now() + leaseMs,
    };
  }

  /** Acks or nacks a lease; a lease lost meanwhile (expired, taken back) is a no-op as in memory. */
  async #settle(lease: Lease, settle: (held: HeldLease) => Promise<unknown>): Promise<void> {
    const held = this.#held.get(lease.leaseId);
    if (!held || this.#closed) return;
    this.#held.delete(lease.leaseId);
    await settle(held).catch((error: unknown) => {
      if (!isLostLeaseError(error)) throw error;
    });
  }
}

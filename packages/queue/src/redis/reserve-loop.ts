import { isPlacedWell } from "@raas/engine";
import type { Redis } from "ioredis";
import type { BullQueueHandle, QueueHead, TBullJob } from "./bull-queue-handle";

export interface Taken {
  job: TBullJob;
  handle: BullQueueHandle;
  token: string;
  /** The lock it was taken with, in ms. */
  lockMs: number;
}

/** A queue a loop takes from; `image` set for a queue of one image's shared items. */
export interface ReserveSource {
  handle: BullQueueHandle;
  image?: string;
}

export interface Waiter<L> {
  leaseMs: number;
  /** Images the reserving worker holds (`ReserveOptions.images`); undefined: no preference. */
  images?: ReadonlySet<string>;
  resolve: (lease: L) => void;
  /** Set once the reserver left (aborted): what was taken for it goes back. */
  isGone: () => boolean;
  /** Ends the reserve with no item (the queue closes). */
  cancel: () => void;
}

export interface ReserveLoopDeps<L> {
  /** The lease for what was taken; null when the entry was malformed (reported and dropped). */
  toLease: (taken: Taken, leaseMs: number) => Promise<L | null>;
  /** A connection of its own: BZPOPMIN blocks it. */
  blocking: Redis;
  maxBlockMs: number;
  nextToken: () => string;
  /** Looks up which image queues exist now (before a round that follows a wait). */
  refreshSources: () => Promise<void>;
  placementMaxWaitMs: number;
  onError: (message: string, error?: unknown) => void;
}

/** Takes in flight at once for one loop's reservers. */
const MAX_PARALLEL_TAKES = 16;

const before = (a: QueueHead, b: QueueHead) => a.rank < b.rank || (a.rank === b.rank && a.seq < b.seq);

/**
 * Serves the reservers of one stage and one worker (or of no worker) in this process, in arrival
 * order: takes the best item of its sources (the shared queue, and the worker's own queue) and
 * otherwise blocks on their BullMQ markers, which every add, re-delivery and delayed item touches.
 */
export class ReserveLoop<L> {
  readonly #waiters: Waiter<L>[] = [];
  #running = false;
  #blocked = false;
  /** Takes started and not yet handed: never more than reservers waiting, or items would go back. */
  #takesInFlight = 0;
  #closed = false;

  constructor(
    /** The queues to take from right now: the shared, the worker's own, and one per image. */
    private readonly sources: () => readonly ReserveSource[],
    private readonly deps: ReserveLoopDeps<L>,
  ) {}

  /** Queues a reserver; `resolve` is called with its lease, or never if it leaves first. */
  add(waiter: Waiter<L>): () => void {
    this.#waiters.push(waiter);
    if (!this.#running) void this.#run();
    // While the loop is busy taking for others, this reserver's take starts now rather than
    // after their round; when the loop is blocked, the next marker wakes it for everyone.
    else if (!this.#blocked && this.#waiters.length > this.#takesInFlight) void this.#takeFor(waiter);
    return () => {
      const index = this.#waiters.indexOf(waiter);
      if (index >= 0) this.#waiters.splice(index, 1);
    };
  }

  close(): void {
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter.cancel();
  }

  async #run(): Promise<void> {
    this.#running = true;
    let nextDueMs = 0;
    let failures = 0;
    let isStale = true;
    try {
      while (this.#waiters.length > 0 && !this.#closed) {
        try {
          if (isStale) await this.deps.refreshSources();
          isStale = false;
          // One take per waiting reserver, in parallel (each is one atomic BullMQ script).
          const count = Math.min(MAX_PARALLEL_TAKES, this.#waiters.length - this.#takesInFlight);
          // Every waiter has a take in flight: those restart the loop when they end.
          if (count <= 0) break;
          const wanted = this.#waiters.slice(0, count);
          const handed = await Promise.all(wanted.map((waiter) => this.#takeFor(waiter, true)));
          failures = 0;
          if (handed.some(Boolean)) continue;
          if (this.#closed) break;
          this.#blocked = true;
          try {
            nextDueMs = await this.#block(nextDueMs);
          } finally {
            this.#blocked = false;
            isStale = true;
          }
        } catch (error) {
          if (this.#closed) break;
          failures += 1;
          // One line per outage: the connection watcher reports when Redis is back.
          if (failures === 1) this.deps.onError("reserve failed, retrying until Redis answers", error);
          await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 50 * 2 ** failures)));
        }
      }
    } finally {
      this.#running = false;
    }
  }

  /** One take for a reserver; true if an item was taken. Errors go to the loop when it asks. */
  async #takeFor(waiter: Waiter<L>, rethrow = false): Promise<boolean> {
    this.#takesInFlight += 1;
    try {
      const taken = await this.#takeBest(waiter.leaseMs, waiter.images);
      if (taken) await this.#hand(taken);
      return taken !== undefined;
    } catch (error) {
      if (rethrow) throw error;
      return false; // the loop retries (and reports) on its next round
    } finally {
      this.#takesInFlight -= 1;
      if (!this.#running && !this.#closed && this.#waiters.length > 0) void this.#run();
    }
  }

  /** Gives a taken item to the first reserver still waiting (claimed at once), else back. */
  async #hand(taken: Taken): Promise<void> {
    const index = this.#waiters.findIndex((candidate) => !candidate.isGone());
    const waiter = index >= 0 && !this.#closed ? this.#waiters.splice(index, 1)[0] : undefined;
    if (!waiter) {
      await this.#giveBack(taken);
      return;
    }
    const lease = await this.deps.toLease(taken, waiter.leaseMs);
    if (lease === null) {
      // Malformed and dropped: the reserver waits on for the next item.
      if (!waiter.isGone() && !this.#closed) this.#requeue(waiter);
      return;
    }
    if (waiter.isGone() || this.#closed) {
      await this.#giveBack(taken);
      return;
    }
    waiter.resolve(lease);
  }

  #requeue(waiter: Waiter<L>): void {
    this.#waiters.unshift(waiter);
    if (!this.#running) void this.#run();
  }

  /**
   * The item that comes first across the sources (the shared queue wins ties it did not lose by
   * seq); for a worker holding `images`, first among the items placed well for it (its images',
   * image-less ones, and those that waited `placementMaxWaitMs`), and only then the others.
   */
  async #takeBest(leaseMs: number, images?: ReadonlySet<string>): Promise<Taken | undefined> {
    let order = this.sources();
    if (order.length > 1) {
      const heads = await Promise.all(order.map((source) => source.handle.head()));
      const ranked = order
        .map((source, index) => ({ source, head: heads[index] }))
        .filter((entry): entry is { source: ReserveSource; head: QueueHead } => entry.head !== undefined)
        .sort((a, b) => (before(a.head, b.head) ? -1 : before(b.head, a.head) ? 1 : 0));
      if (ranked.length === 0) return undefined;
      if (images) {
        const nowMs = Date.now();
        // Seq is enqueue time in ms × 1,000 (plus a counter): the item's wait is read from it.
        const isWell = ({ source, head }: { source: ReserveSource; head: QueueHead }) =>
          isPlacedWell(
            { image: source.image, enqueuedAtMs: Math.floor(head.seq / 1_000) },
            images,
            nowMs,
            this.deps.placementMaxWaitMs,
          );
        ranked.sort((a, b) => Number(isWell(b)) - Number(isWell(a))); // stable: rank order kept
      }
      order = ranked.map((entry) => entry.source);
    }
    // Another consumer may take the head first: then the next source's item is the best left.
    for (const { handle } of order) {
      const token = this.deps.nextToken();
      const job = await handle.take(token, leaseMs);
      if (job) return { job, handle, token, lockMs: leaseMs };
    }
    return undefined;
  }

  async #giveBack(taken: Taken): Promise<void> {
    await taken.job.moveToWait(taken.token).catch((error: unknown) => {
      this.deps.onError(`could not give back job ${taken.job.id}`, error);
    });
  }

  /** Waits for a marker; returns when a delayed item falls due if the marker said so. */
  async #block(nextDueMs: number): Promise<number> {
    const now = Date.now();
    const untilDue = nextDueMs > now ? nextDueMs - now : this.deps.maxBlockMs;
    const timeoutMs = Math.max(1, Math.min(this.deps.maxBlockMs, untilDue));
    const keys = this.sources().map((source) => source.handle.markerKey);
    const popped = await this.deps.blocking.bzpopmin(...keys, timeoutMs / 1_000);
    if (!popped) return nextDueMs > Date.now() ? nextDueMs : 0;
    const score = Number(popped[2]);
    // Score 0: something is ready now. A timestamp: a delayed item falls due then.
    if (score > Date.now()) return nextDueMs > Date.now() ? Math.min(nextDueMs, score) : score;
    return nextDueMs > Date.now() ? nextDueMs : 0;
  }
}

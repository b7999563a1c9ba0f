import type { Redis } from "ioredis";
import type { BullQueueHandle, QueueHead, TBullJob } from "./bull-queue-handle";

export interface Taken {
  job: TBullJob;
  handle: BullQueueHandle;
  token: string;
  /** The lock it was taken with, in ms. */
  lockMs: number;
}

export interface Waiter<L> {
  leaseMs: number;
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
  #closed = false;

  constructor(
    private readonly sources: readonly BullQueueHandle[],
    private readonly deps: ReserveLoopDeps<L>,
  ) {}

  /** Queues a reserver; `resolve` is called with its lease, or never if it leaves first. */
  add(waiter: Waiter<L>): () => void {
    this.#waiters.push(waiter);
    if (!this.#running) void this.#run();
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
    try {
      while (this.#waiters.length > 0 && !this.#closed) {
        try {
          // One take per waiting reserver, in parallel (each is one atomic BullMQ script).
          const wanted = this.#waiters.slice(0, MAX_PARALLEL_TAKES);
          const taken = await Promise.all(wanted.map((waiter) => this.#takeBest(waiter.leaseMs)));
          failures = 0;
          let handed = 0;
          for (const item of taken) {
            if (!item) continue;
            await this.#hand(item);
            handed += 1;
          }
          if (handed > 0) continue;
          if (this.#closed) break;
          nextDueMs = await this.#block(nextDueMs);
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

  async #hand(taken: Taken): Promise<void> {
    const waiter = this.#waiters.find((candidate) => !candidate.isGone());
    if (!waiter || this.#closed) {
      await this.#giveBack(taken);
      return;
    }
    const lease = await this.deps.toLease(taken, waiter.leaseMs);
    if (lease === null) return;
    if (waiter.isGone() || this.#closed) {
      await this.#giveBack(taken);
      return;
    }
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    waiter.resolve(lease);
  }

  /** The item that comes first across the sources (the shared queue wins ties it did not lose by seq). */
  async #takeBest(leaseMs: number): Promise<Taken | undefined> {
    let order = this.sources;
    if (this.sources.length > 1) {
      const heads = await Promise.all(this.sources.map((source) => source.head()));
      const ranked = this.sources
        .map((source, index) => ({ source, head: heads[index] }))
        .filter((entry): entry is { source: BullQueueHandle; head: QueueHead } => entry.head !== undefined)
        .sort((a, b) => (before(a.head, b.head) ? -1 : before(b.head, a.head) ? 1 : 0));
      if (ranked.length === 0) return undefined;
      order = ranked.map((entry) => entry.source);
    }
    // Another consumer may take the head first: then the next source's item is the best left.
    for (const handle of order) {
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
    const keys = this.sources.map((source) => source.markerKey);
    const popped = await this.deps.blocking.bzpopmin(...keys, timeoutMs / 1_000);
    if (!popped) return nextDueMs > Date.now() ? nextDueMs : 0;
    const score = Number(popped[2]);
    // Score 0: something is ready now. A timestamp: a delayed item falls due then.
    if (score > Date.now()) return nextDueMs > Date.now() ? Math.min(nextDueMs, score) : score;
    return nextDueMs > Date.now() ? nextDueMs : 0;
  }
}

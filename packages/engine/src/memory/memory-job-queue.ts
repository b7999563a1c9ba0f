import { STAGES, type TStage } from "@raas/shared";
import type { Clock } from "../ports/clock.port";
import { systemClock } from "../ports/clock.port";
import type { JobQueue, Lease, QueueItem, ReserveOptions } from "../ports/job-queue.port";
import { DEFAULT_PLACEMENT_MAX_WAIT_MS, isPlacedWell } from "../scheduling/image-placement";
import { BinaryHeap } from "../util/binary-heap";

interface Entry {
  item: QueueItem;
  seq: number;
  deliveries: number;
  /** When first queued (clock ms): image-aware placement waits a bounded time from here. */
  enqueuedAtMs: number;
}

interface Waiter {
  resolve: (lease: Lease | null) => void;
  leaseMs: number;
  /** The reserving worker; it also takes items addressed to it. */
  workerId: string | undefined;
  /** Images the reserving worker holds (`ReserveOptions.images`); undefined: no preference. */
  images: ReadonlySet<string> | undefined;
  cleanup: () => void;
}

interface HeldLease {
  entry: Entry;
  lease: Lease;
  cancelTimer: () => void;
  /** The worker that reserved it (`ReserveOptions.workerId`). */
  holder: string | undefined;
}

const addressKey = (stage: TStage, workerId: string) => `${stage} ${workerId}`;

const imageOf = (entry: Entry) => entry.item.image ?? undefined;

const byPriorityThenSeq = (a: Entry, b: Entry) => b.item.priority - a.item.priority || a.seq - b.seq;

/**
 * In-process priority queues, one per stage (plus one per stage and addressed worker), with
 * leases: an item whose lease expires without `ack` is delivered again, as a distributed queue
 * would after a worker dies.
 */
export class MemoryJobQueue implements JobQueue {
  readonly #heaps = new Map<TStage, BinaryHeap<Entry>>();
  /** Items addressed to one worker, by `${stage} ${workerId}`. */
  readonly #addressed = new Map<string, BinaryHeap<Entry>>();
  readonly #waiters = new Map<TStage, Waiter[]>();
  readonly #leases = new Map<string, HeldLease>();
  /** Nacked items waiting out their delay. */
  readonly #delayed = new Set<Entry>();
  readonly #clock: Clock;
  readonly #placementMaxWaitMs: number;
  #seq = 0;
  #leaseSeq = 0;
  #closed = false;

  /**
   * `placementMaxWaitMs`: how long a shared item with an image is left to a worker that holds
   * that image (`ReserveOptions.images`) before any worker takes it. Default 3,000.
   */
  constructor(options: { clock?: Clock; placementMaxWaitMs?: number } = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#placementMaxWaitMs = options.placementMaxWaitMs ?? DEFAULT_PLACEMENT_MAX_WAIT_MS;
    for (const stage of STAGES) {
      this.#heaps.set(stage, new BinaryHeap(byPriorityThenSeq));
      this.#waiters.set(stage, []);
    }
  }

  async enqueue(item: QueueItem): Promise<void> {
    this.#push({ item: { ...item }, seq: this.#seq++, deliveries: 0, enqueuedAtMs: this.#clock.now() });
  }

  reserve(
    stage: TStage,
    leaseMs: number,
    signal: AbortSignal,
    options: ReserveOptions = {},
  ): Promise<Lease | null> {
    if (this.#closed || signal.aborted) return Promise.resolve(null);
    const images = options.images && new Set(options.images);
    const entry = this.#popFor(stage, options.workerId, images);
    if (entry) return Promise.resolve(this.#lease(entry, leaseMs, options.workerId));
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(stage) as Waiter[];
      const onAbort = () => {
        const index = waiters.indexOf(waiter);
        if (index >= 0) waiters.splice(index, 1);
        resolve(null);
      };
      const waiter: Waiter = {
        resolve,
        leaseMs,
        workerId: options.workerId,
        images,
        cleanup: () => signal.removeEventListener("abort", onAbort),
      };
      signal.addEventListener("abort", onAbort, { once: true });
      waiters.push(waiter);
    });
  }

  async ack(lease: Lease): Promise<void> {
    this.#release(lease.leaseId);
  }

  async nack(lease: Lease, delayMs = 0): Promise<void> {
    const held = this.#release(lease.leaseId);
    if (!held) return;
    if (delayMs <= 0) {
      this.#push(held.entry);
      return;
    }
    this.#delayed.add(held.entry);
    this.#clock.setTimer(() => {
      // Removed meanwhile (`remove`): nothing to deliver.
      if (this.#delayed.delete(held.entry)) this.#push(held.entry);
    }, delayMs);
  }

  async extend(lease: Lease, leaseMs: number): Promise<Lease> {
    const held = this.#leases.get(lease.leaseId);
    if (!held) throw new Error(`lease ${lease.leaseId} of job ${lease.item.jobId} is no longer held`);
    held.cancelTimer();
    const renewed: Lease = { ...held.lease, leaseUntilMs: this.#clock.now() + leaseMs };
    held.lease = renewed;
    held.cancelTimer = this.#clock.setTimer(() => this.#expire(renewed.leaseId), leaseMs);
    return renewed;
  }

  async remove(jobId: string, stage: TStage): Promise<boolean> {
    const matches = (entry: Entry) => entry.item.jobId === jobId;
    if (this.#heap(stage).remove(matches) !== undefined) return true;
    for (const entry of this.#delayed) {
      if (entry.item.stage === stage && matches(entry)) return this.#delayed.delete(entry);
    }
    for (const [key, heap] of this.#addressed) {
      if (key.startsWith(`${stage} `) && heap.remove(matches) !== undefined) return true;
    }
    return false;
  }

  async takeAddressedTo(workerId: string): Promise<QueueItem[]> {
    const taken: QueueItem[] = [];
    for (const stage of STAGES) {
      const heap = this.#addressed.get(addressKey(stage, workerId));
      for (let entry = heap?.pop(); entry; entry = heap?.pop()) taken.push(entry.item);
      this.#addressed.delete(addressKey(stage, workerId));
    }
    for (const [leaseId, held] of this.#leases) {
      if (held.entry.item.workerId === workerId) {
        held.cancelTimer();
        this.#leases.delete(leaseId);
        taken.push(held.entry.item);
      } else if (!held.entry.item.workerId && held.holder === workerId) {
        // A shared item the dead worker had leased goes back now, not when its lease runs out.
        held.cancelTimer();
        this.#expire(leaseId);
      }
    }
    return taken;
  }

  async holds(jobId: string, stage: TStage): Promise<boolean> {
    const matches = (entry: Entry) => entry.item.jobId === jobId && entry.item.stage === stage;
    if (this.#heap(stage).some(matches)) return true;
    for (const [key, heap] of this.#addressed)
      if (key.startsWith(`${stage} `) && heap.some(matches)) return true;
    for (const held of this.#leases.values()) if (matches(held.entry)) return true;
    for (const entry of this.#delayed) if (matches(entry)) return true;
    return false;
  }

  async depth(stage: TStage): Promise<number> {
    let size = this.#heap(stage).size;
    for (const [key, heap] of this.#addressed) if (key.startsWith(`${stage} `)) size += heap.size;
    return size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiters of this.#waiters.values()) {
      for (const waiter of waiters.splice(0)) {
        waiter.cleanup();
        waiter.resolve(null);
      }
    }
    for (const held of this.#leases.values()) held.cancelTimer();
    this.#leases.clear();
  }

  #heap(stage: TStage): BinaryHeap<Entry> {
    return this.#heaps.get(stage) as BinaryHeap<Entry>;
  }

  /** The best item for a worker: its own addressed items compete with the shared ones by priority. */
  #popFor(stage: TStage, workerId: string | undefined, images?: ReadonlySet<string>): Entry | undefined {
    const shared = this.#heap(stage);
    const own = workerId === undefined ? undefined : this.#addressed.get(addressKey(stage, workerId));
    const a = images ? this.#placedFor(shared, images) : shared.peek();
    const b = own?.peek();
    if (b && (!a || byPriorityThenSeq(b, a) < 0)) return own?.pop();
    if (a === shared.peek()) return shared.pop();
    return a && shared.remove((entry) => entry === a);
  }

  /** The best shared item placed well for a worker holding `images`, else the best (O(n) only past the head). */
  #placedFor(heap: BinaryHeap<Entry>, images: ReadonlySet<string>): Entry | undefined {
    const nowMs = this.#clock.now();
    const isWell = (entry: Entry) =>
      isPlacedWell(
        { image: imageOf(entry), enqueuedAtMs: entry.enqueuedAtMs },
        images,
        nowMs,
        this.#placementMaxWaitMs,
      );
    const head = heap.peek();
    if (!head || isWell(head)) return head;
    let best: Entry | undefined;
    for (const entry of heap.values()) {
      if (isWell(entry) && (!best || byPriorityThenSeq(entry, best) < 0)) best = entry;
    }
    return best ?? head;
  }

  #push(entry: Entry): void {
    if (this.#closed) return;
    const { stage, workerId } = entry.item;
    const waiters = this.#waiters.get(stage) as Waiter[];
    const image = imageOf(entry);
    // A shared item with an image goes to a waiting worker that holds it, else to the first.
    const holder = image === undefined || workerId ? -1 : waiters.findIndex((w) => w.images?.has(image));
    const index = workerId ? waiters.findIndex((w) => w.workerId === workerId) : Math.max(0, holder);
    const waiter = index >= 0 ? waiters.splice(index, 1)[0] : undefined;
    if (waiter) {
      waiter.cleanup();
      waiter.resolve(this.#lease(entry, waiter.leaseMs, waiter.workerId));
      return;
    }
    if (!workerId) {
      this.#heap(stage).push(entry);
      return;
    }
    const key = addressKey(stage, workerId);
    let heap = this.#addressed.get(key);
    if (!heap) {
      heap = new BinaryHeap(byPriorityThenSeq);
      this.#addressed.set(key, heap);
    }
    heap.push(entry);
  }

  #lease(entry: Entry, leaseMs: number, holder: string | undefined): Lease {
    entry.deliveries += 1;
    const leaseId = `lease_${++this.#leaseSeq}`;
    const lease: Lease = {
      item: entry.item,
      leaseId,
      deliveries: entry.deliveries,
      leaseUntilMs: this.#clock.now() + leaseMs,
    };
    const cancelTimer = this.#clock.setTimer(() => this.#expire(leaseId), leaseMs);
    this.#leases.set(leaseId, { entry, lease, cancelTimer, holder });
    return lease;
  }

  #release(leaseId: string): HeldLease | undefined {
    const held = this.#leases.get(leaseId);
    if (!held) return undefined;
    held.cancelTimer();
    this.#leases.delete(leaseId);
    return held;
  }

  #expire(leaseId: string): void {
    const held = this.#leases.get(leaseId);
    if (!held) return;
    this.#leases.delete(leaseId);
    this.#push(held.entry);
  }
}

import type { JobQueue, Lease } from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";

export interface QueueFixture {
  queue: JobQueue;
  /** Another handle on the same queues, as a second process would have. */
  openPeer: () => Promise<JobQueue>;
  dispose: () => Promise<void>;
}

const never = () => new AbortController().signal;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function mustReserve(queue: JobQueue, ...args: Parameters<JobQueue["reserve"]>): Promise<Lease> {
  const lease = await queue.reserve(...args);
  if (!lease) throw new Error("expected a lease, got null");
  return lease;
}

/** The behaviour every `JobQueue` adapter shares; each test gets fresh queues. */
export function describeJobQueueContract(name: string, open: () => Promise<QueueFixture>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let fixture: QueueFixture | undefined;
    const fresh = async () => {
      fixture = await open();
      return fixture;
    };
    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });

    it("delivers higher priority first, FIFO within a priority, per stage", async () => {
      const { queue } = await fresh();
      await queue.enqueue({ jobId: "a", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "b", stage: "init", priority: 5 });
      await queue.enqueue({ jobId: "c", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "low", stage: "init", priority: -1_000_000 });
      await queue.enqueue({ jobId: "top", stage: "init", priority: 1_000_000 });
      await queue.enqueue({ jobId: "d", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "r", stage: "run", priority: 100 });
      expect(await queue.depth("init")).toBe(6);
      const order: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        const lease = await mustReserve(queue, "init", 10_000, never());
        expect(lease.deliveries).toBe(1);
        order.push(lease.item.jobId);
        await queue.ack(lease);
      }
      expect(order).toEqual(["top", "b", "a", "c", "d", "low"]);
      expect(await queue.depth("init")).toBe(0);
      expect(await queue.depth("run")).toBe(1);
      expect(await queue.depth("eval")).toBe(0);
    });

    it("wakes a waiting reserver on enqueue, from another handle too", async () => {
      const { queue, openPeer } = await fresh();
      const peer = await openPeer();
      const waiting = queue.reserve("eval", 10_000, never());
      await sleep(50);
      await peer.enqueue({ jobId: "x", stage: "eval", priority: 3 });
      const lease = await waiting;
      expect(lease?.item).toMatchObject({ jobId: "x", stage: "eval", priority: 3 });
      expect(lease?.deliveries).toBe(1);
    });

    it("resolves null when the signal aborts, before or while waiting", async () => {
      const { queue } = await fresh();
      const aborted = new AbortController();
      aborted.abort();
      expect(await queue.reserve("run", 1_000, aborted.signal)).toBeNull();
      const controller = new AbortController();
      const waiting = queue.reserve("run", 1_000, controller.signal);
      await sleep(30);
      controller.abort();
      expect(await waiting).toBeNull();
      // The aborted reserver took nothing: the next item goes to the next reserver.
      await queue.enqueue({ jobId: "y", stage: "run", priority: 0 });
      expect((await mustReserve(queue, "run", 1_000, never())).item.jobId).toBe("y");
    });

    it("delivers an item again when its lease expires, counting deliveries", async () => {
      const { queue, openPeer } = await fresh();
      await queue.enqueue({ jobId: "x", stage: "run", priority: 0 });
      const first = await mustReserve(queue, "run", 200, never());
      expect(first.deliveries).toBe(1);
      // The holder "died": another process gets the item once the lease is gone.
      const peer = await openPeer();
      const second = await mustReserve(peer, "run", 10_000, never());
      expect(second.item.jobId).toBe("x");
      expect(second.deliveries).toBe(2);
      // The dead holder's late ack changes nothing; the live one's does.
      await queue.ack(first);
      expect(await peer.depth("run")).toBe(0);
      await peer.ack(second);
      expect(await peer.depth("run")).toBe(0);
    });

    it("keeps an extended lease past its first deadline, and re-queues on nack", async () => {
      const { queue } = await fresh();
      await queue.enqueue({ jobId: "x", stage: "run", priority: 0 });
      const lease = await mustReserve(queue, "run", 200, never());
      const extended = await queue.extend(lease, 30_000);
      expect(extended.leaseUntilMs).toBeGreaterThan(lease.leaseUntilMs);
      expect(await queue.reserve("run", 1_000, AbortSignal.timeout(1_000))).toBeNull();
      expect(await queue.depth("run")).toBe(0);
      await queue.nack(extended);
      expect(await queue.depth("run")).toBe(1);
      const again = await mustReserve(queue, "run", 1_000, never());
      expect(again.item.jobId).toBe("x");
      expect(again.deliveries).toBe(2);
      await queue.ack(again);
      await expect(queue.extend(again, 1_000)).rejects.toThrow(/no longer held/);
    });

    it("holds a nacked item back for its delay, then delivers it", async () => {
      const { queue } = await fresh();
      await queue.enqueue({ jobId: "x", stage: "eval", priority: 0 });
      const lease = await mustReserve(queue, "eval", 10_000, never());
      await queue.nack(lease, 3_000);
      expect(await queue.depth("eval")).toBe(0);
      await queue.enqueue({ jobId: "y", stage: "eval", priority: -5 });
      // The lower-priority item comes first: the nacked one is still held back.
      const y = await mustReserve(queue, "eval", 10_000, never());
      expect(y.item.jobId).toBe("y");
      const x = await mustReserve(queue, "eval", 10_000, never());
      expect(x.item.jobId).toBe("x");
      expect(x.deliveries).toBe(2);
    });

    it("brings a nacked item back after its delay to a worker reserving its shared and own queue", async () => {
      const { queue } = await fresh();
      const w1 = { workerId: "w1" };
      // The bound only ends a broken run: the items are due 300 ms after their nack.
      const bounded = () => AbortSignal.timeout(15_000);
      await queue.enqueue({ jobId: "shared", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "own", stage: "init", priority: 0, workerId: "w1" });
      const first = await mustReserve(queue, "init", 10_000, never(), w1);
      const second = await mustReserve(queue, "init", 10_000, never(), w1);
      expect([first.item.jobId, second.item.jobId].sort()).toEqual(["own", "shared"]);
      // A reserver already waiting when the nack is made, then one that comes after it.
      const waiting = queue.reserve("init", 10_000, bounded(), w1);
      await sleep(50);
      await queue.nack(first, 300);
      const again = await waiting;
      expect(again?.item.jobId).toBe(first.item.jobId);
      expect(again?.deliveries).toBe(2);
      await queue.nack(second, 300);
      const later = await queue.reserve("init", 10_000, bounded(), w1);
      expect(later?.item.jobId).toBe(second.item.jobId);
      expect(later?.deliveries).toBe(2);
    });

    it("removes a queued item, not a leased one, and depth follows", async () => {
      const { queue } = await fresh();
      await queue.enqueue({ jobId: "a", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "b", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "w", stage: "init", priority: 0, workerId: "w1" });
      expect(await queue.depth("init")).toBe(3);
      const leased = await mustReserve(queue, "init", 10_000, never());
      expect(leased.item.jobId).toBe("a");
      expect(await queue.remove("a", "init")).toBe(false);
      expect(await queue.remove("b", "run")).toBe(false);
      expect(await queue.remove("b", "init")).toBe(true);
      expect(await queue.remove("b", "init")).toBe(false);
      expect(await queue.remove("w", "init")).toBe(true);
      expect(await queue.depth("init")).toBe(0);
    });

    it("says which jobs it holds an item of per stage: waiting, delayed, leased or addressed, not acked", async () => {
      const { queue, openPeer } = await fresh();
      await queue.enqueue({ jobId: "leased", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "waiting", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "addressed", stage: "run", priority: 0, workerId: "w1" });
      const leased = await mustReserve(queue, "init", 10_000, never());
      expect(leased.item.jobId).toBe("leased");
      const peer = await openPeer();
      for (const [jobId, stage] of [
        ["leased", "init"],
        ["waiting", "init"],
        ["addressed", "run"],
      ] as const) {
        expect(await peer.holds(jobId, stage), `${jobId} ${stage}`).toBe(true);
      }
      expect(await peer.holds("waiting", "run")).toBe(false);
      expect(await peer.holds("never-queued", "init")).toBe(false);
      const waiting = await mustReserve(queue, "init", 10_000, never());
      await queue.nack(waiting, 60_000);
      expect(await peer.holds("waiting", "init")).toBe(true);
      await queue.ack(leased);
      expect(await peer.holds("leased", "init")).toBe(false);
      expect(await queue.remove("waiting", "init")).toBe(true);
      expect(await peer.holds("waiting", "init")).toBe(false);
    });

    it("gives an addressed item only to its worker, competing by priority with shared items", async () => {
      const { queue, openPeer } = await fresh();
      await queue.enqueue({ jobId: "shared", stage: "run", priority: 0 });
      await queue.enqueue({ jobId: "for-w1", stage: "run", priority: 5, workerId: "w1" });
      await queue.enqueue({ jobId: "for-w2", stage: "run", priority: 9, workerId: "w2:host" });
      await queue.enqueue({ jobId: "shared-top", stage: "run", priority: 7 });
      expect(await queue.depth("run")).toBe(4);
      const w3 = await mustReserve(queue, "run", 10_000, never(), { workerId: "w3" });
      expect(w3.item.jobId).toBe("shared-top");
      const w1 = await mustReserve(queue, "run", 10_000, never(), { workerId: "w1" });
      expect(w1.item).toMatchObject({ jobId: "for-w1", workerId: "w1", priority: 5 });
      const w1Next = await mustReserve(queue, "run", 10_000, never(), { workerId: "w1" });
      expect(w1Next.item.jobId).toBe("shared");
      expect(await queue.reserve("run", 1_000, AbortSignal.timeout(300))).toBeNull();
      expect(await queue.depth("run")).toBe(1);
      // A waiting worker is woken by its own items only, here enqueued by another process.
      const peer = await openPeer();
      const waitingW1 = queue.reserve("run", 10_000, never(), { workerId: "w1" });
      await peer.enqueue({ jobId: "for-w2-b", stage: "run", priority: 0, workerId: "w2:host" });
      await peer.enqueue({ jobId: "for-w1-b", stage: "run", priority: 0, workerId: "w1" });
      expect((await waitingW1)?.item.jobId).toBe("for-w1-b");
      const w2 = await mustReserve(peer, "run", 10_000, never(), { workerId: "w2:host" });
      expect(w2.item.jobId).toBe("for-w2");
      // A waiting worker is woken by shared items too.
      const waitingW1Again = queue.reserve("run", 10_000, never(), { workerId: "w1" });
      await sleep(30);
      await peer.enqueue({ jobId: "shared-late", stage: "run", priority: 0 });
      expect((await waitingW1Again)?.item.jobId).toBe("shared-late");
    });

    it("hands a worker's waiting and leased items back for recovery", async () => {
      const { queue, openPeer } = await fresh();
      await queue.enqueue({ jobId: "leased", stage: "run", priority: 9, workerId: "w2" });
      await queue.enqueue({ jobId: "waiting", stage: "run", priority: 0, workerId: "w2" });
      await queue.enqueue({ jobId: "eval", stage: "eval", priority: 1, workerId: "w2" });
      await queue.enqueue({ jobId: "other", stage: "run", priority: 0, workerId: "w1" });
      await queue.enqueue({ jobId: "shared", stage: "run", priority: 0 });
      const held = await mustReserve(queue, "run", 30_000, never(), { workerId: "w2" });
      expect(held.item.jobId).toBe("leased");
      const peer = await openPeer();
      const taken = await peer.takeAddressedTo("w2");
      expect(taken.map((item) => `${item.stage}/${item.jobId}/${item.workerId}`).sort()).toEqual([
        "eval/eval/w2",
        "run/leased/w2",
        "run/waiting/w2",
      ]);
      expect(await peer.takeAddressedTo("w2")).toEqual([]);
      expect(await peer.depth("run")).toBe(2);
      expect(await peer.depth("eval")).toBe(0);
      const next = await mustReserve(peer, "run", 10_000, never(), { workerId: "w2" });
      expect(next.item.jobId).toBe("shared");
    });

    it("gives back at once the shared items a recovered worker had leased, never another's", async () => {
      const { queue, openPeer } = await fresh();
      await queue.enqueue({ jobId: "first", stage: "init", priority: 1 });
      await queue.enqueue({ jobId: "second", stage: "init", priority: 0 });
      const dead = await mustReserve(queue, "init", 60_000, never(), { workerId: "w-dead:host" });
      const live = await mustReserve(queue, "init", 60_000, never(), { workerId: "w-dead" });
      expect([dead.item.jobId, live.item.jobId]).toEqual(["first", "second"]);
      const peer = await openPeer();
      expect(await peer.takeAddressedTo("w-dead:host")).toEqual([]);
      // Delivered again long before its 60 s lease would have run out; the other lease stays.
      const again = await mustReserve(peer, "init", 60_000, AbortSignal.timeout(10_000), { workerId: "w3" });
      expect(again.item.jobId).toBe("first");
      expect(again.deliveries).toBe(2);
      expect(await queue.reserve("init", 1_000, AbortSignal.timeout(300))).toBeNull();
      await queue.ack(live);
      await peer.ack(again);
    });

    // A lost worker's recovery: its INIT item goes back and a survivor takes it at once, reads the
    // job as still running on the lost worker and drops it; the recovery meanwhile restarted the job
    // (attempt 2) and queued it again. The drop must not take the new attempt's item with it.
    it("delivers an item queued again while an earlier item of the same job is leased", async () => {
      const { queue, openPeer } = await fresh();
      const survivor = await openPeer();
      await queue.enqueue({ jobId: "x", stage: "init", priority: 0 });
      await mustReserve(queue, "init", 60_000, never(), { workerId: "w-lost" });
      expect(await queue.takeAddressedTo("w-lost")).toEqual([]);
      const stale = await mustReserve(survivor, "init", 60_000, AbortSignal.timeout(10_000), {
        workerId: "w-survivor",
      });
      expect(stale.item.jobId).toBe("x");
      await queue.enqueue({ jobId: "x", stage: "init", priority: 0 });
      await survivor.ack(stale);
      expect(await queue.holds("x", "init")).toBe(true);
      const next = await mustReserve(survivor, "init", 60_000, AbortSignal.timeout(10_000), {
        workerId: "w-survivor",
      });
      expect(next.item).toMatchObject({ jobId: "x", stage: "init" });
      await survivor.ack(next);
      expect(await queue.holds("x", "init")).toBe(false);
      // Queued again while leased and then cancelled: `remove` takes the new item.
      await queue.enqueue({ jobId: "y", stage: "run", priority: 0 });
      const leased = await mustReserve(survivor, "run", 60_000, never());
      await queue.enqueue({ jobId: "y", stage: "run", priority: 0 });
      expect(await queue.remove("y", "run")).toBe(true);
      await survivor.ack(leased);
      expect(await queue.holds("y", "run")).toBe(false);
      expect(await queue.depth("run")).toBe(0);
    });

    it("never gives one item to two consumers at once", async () => {
      const { queue, openPeer } = await fresh();
      const peer = await openPeer();
      const total = 150;
      for (let i = 0; i < total; i += 1) {
        await queue.enqueue({ jobId: `job-${i}`, stage: "init", priority: i % 3 });
      }
      const seen: string[] = [];
      const done = new AbortController();
      const consume = async (consumer: typeof queue) => {
        for (;;) {
          const lease = await consumer.reserve("init", 60_000, done.signal);
          if (!lease) return;
          expect(lease.deliveries).toBe(1);
          seen.push(lease.item.jobId);
          await consumer.ack(lease);
          if (seen.length === total) done.abort();
        }
      };
      await Promise.all([queue, peer, queue, peer, queue, peer].map(consume));
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      expect(await queue.depth("init")).toBe(0);
    });

    it("releases a waiting reserver on close", async () => {
      const { queue } = await fresh();
      const waiting = queue.reserve("init", 1_000, never(), { workerId: "w1" });
      await sleep(30);
      await queue.close();
      expect(await waiting).toBeNull();
      expect(await queue.reserve("init", 1_000, never())).toBeNull();
      // A closed queue takes nothing and does not throw.
      await expect(queue.enqueue({ jobId: "late", stage: "init", priority: 0 })).resolves.toBeUndefined();
      await expect(queue.close()).resolves.toBeUndefined();
    });
  });
}

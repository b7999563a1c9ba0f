import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing/manual-clock";
import { MemoryJobQueue } from "./memory-job-queue";

const never = () => new AbortController().signal;

describe("MemoryJobQueue", () => {
  it("delivers higher priority first, FIFO within a priority, per stage", async () => {
    const queue = new MemoryJobQueue();
    await queue.enqueue({ jobId: "a", stage: "init", priority: 0 });
    await queue.enqueue({ jobId: "b", stage: "init", priority: 5 });
    await queue.enqueue({ jobId: "c", stage: "init", priority: 0 });
    await queue.enqueue({ jobId: "r", stage: "run", priority: 100 });
    const order: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const lease = await queue.reserve("init", 1_000, never());
      order.push(lease?.item.jobId ?? "none");
      if (lease) await queue.ack(lease);
    }
    expect(order).toEqual(["b", "a", "c"]);
    expect(await queue.depth("init")).toBe(0);
    expect(await queue.depth("run")).toBe(1);
    await queue.close();
  });

  it("wakes a waiting reserver on enqueue and resolves null on abort", async () => {
    const queue = new MemoryJobQueue();
    const waiting = queue.reserve("eval", 1_000, never());
    await queue.enqueue({ jobId: "x", stage: "eval", priority: 0 });
    expect((await waiting)?.item.jobId).toBe("x");
    const controller = new AbortController();
    const aborted = queue.reserve("eval", 1_000, controller.signal);
    controller.abort();
    expect(await aborted).toBeNull();
    await queue.close();
  });

  it("re-delivers an item whose lease expired, counting deliveries", async () => {
    const clock = new ManualClock();
    const queue = new MemoryJobQueue({ clock });
    await queue.enqueue({ jobId: "x", stage: "run", priority: 0 });
    const first = await queue.reserve("run", 20, never());
    expect(first?.deliveries).toBe(1);
    let isRedelivered = false;
    const waiting = queue.reserve("run", 1_000, never()).finally(() => {
      isRedelivered = true;
    });
    await clock.advance(19);
    expect(isRedelivered).toBe(false);
    await clock.advance(1);
    expect(isRedelivered).toBe(true);
    const second = await waiting;
    expect(second?.item.jobId).toBe("x");
    expect(second?.deliveries).toBe(2);
    await queue.close();
  });

  it("keeps an extended lease and re-queues on nack; removes queued items", async () => {
    const clock = new ManualClock();
    const queue = new MemoryJobQueue({ clock });
    await queue.enqueue({ jobId: "x", stage: "run", priority: 0 });
    const lease = await queue.reserve("run", 30, never());
    if (!lease) throw new Error("no lease");
    await queue.extend(lease, 5_000);
    // Past the first lease, short of the extended one: still held, not back in the queue.
    await clock.advance(4_999);
    expect(await queue.depth("run")).toBe(0);
    await queue.nack(lease);
    expect(await queue.depth("run")).toBe(1);
    expect(await queue.remove("x", "run")).toBe(true);
    expect(await queue.remove("x", "run")).toBe(false);
    await queue.close();
  });

  it("gives an addressed item only to its worker, by priority among the shared ones, and hands it back for recovery", async () => {
    const queue = new MemoryJobQueue();
    await queue.enqueue({ jobId: "shared", stage: "run", priority: 0 });
    await queue.enqueue({ jobId: "for-w1", stage: "run", priority: 5, workerId: "w1" });
    await queue.enqueue({ jobId: "for-w2", stage: "run", priority: 9, workerId: "w2" });
    const other = await queue.reserve("run", 1_000, never(), { workerId: "w3" });
    expect(other?.item.jobId).toBe("shared");
    const first = await queue.reserve("run", 1_000, never(), { workerId: "w1" });
    expect(first?.item.jobId).toBe("for-w1");
    const anonymous = queue.reserve("run", 1_000, AbortSignal.timeout(50));
    expect(await anonymous).toBeNull();
    expect(await queue.depth("run")).toBe(1);
    // A worker waiting is woken only by its own items.
    const waitingW1 = queue.reserve("run", 1_000, never(), { workerId: "w1" });
    await queue.enqueue({ jobId: "for-w2-b", stage: "run", priority: 0, workerId: "w2" });
    await queue.enqueue({ jobId: "for-w1-b", stage: "run", priority: 0, workerId: "w1" });
    expect((await waitingW1)?.item.jobId).toBe("for-w1-b");
    const leasedByW2 = await queue.reserve("run", 1_000, never(), { workerId: "w2" });
    expect(leasedByW2?.item.jobId).toBe("for-w2");
    const taken = await queue.takeAddressedTo("w2");
    expect(taken.map((item) => item.jobId).sort()).toEqual(["for-w2", "for-w2-b"]);
    expect(await queue.depth("run")).toBe(0);
    await queue.close();
  });
});

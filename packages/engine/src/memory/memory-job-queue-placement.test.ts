import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing/manual-clock";
import { MemoryJobQueue } from "./memory-job-queue";

const never = () => new AbortController().signal;

async function take(queue: MemoryJobQueue, images?: string[]): Promise<string | undefined> {
  const lease = await queue.reserve("init", 60_000, never(), images ? { images } : {});
  if (lease) await queue.ack(lease);
  return lease?.item.jobId;
}

describe("MemoryJobQueue image-aware placement", () => {
  it("gives a worker the items of images it holds first, and the best item when it holds none waiting", async () => {
    const queue = new MemoryJobQueue({ clock: new ManualClock(), placementMaxWaitMs: 5_000 });
    await queue.enqueue({ jobId: "a1", stage: "init", priority: 0, image: "img-a" });
    await queue.enqueue({ jobId: "b1", stage: "init", priority: 0, image: "img-b" });
    await queue.enqueue({ jobId: "plain", stage: "init", priority: 0 });
    await queue.enqueue({ jobId: "b2", stage: "init", priority: 0, image: "img-b" });
    expect(await take(queue, ["img-b"])).toBe("b1");
    // An item needing no image is placed well anywhere: it comes before the later b2.
    expect(await take(queue, ["img-b"])).toBe("plain");
    expect(await take(queue, ["img-b"])).toBe("b2");
    // Nothing of img-c waits: the worker takes the best item there is.
    expect(await take(queue, ["img-c"])).toBe("a1");
    await queue.close();
  });

  it("hands an item that waited past the bound to whoever asks, ahead of the asker's own images", async () => {
    const clock = new ManualClock();
    const queue = new MemoryJobQueue({ clock, placementMaxWaitMs: 2_000 });
    await queue.enqueue({ jobId: "a1", stage: "init", priority: 0, image: "img-a" });
    await clock.advance(1_000);
    await queue.enqueue({ jobId: "b1", stage: "init", priority: 0, image: "img-b" });
    await queue.enqueue({ jobId: "b2", stage: "init", priority: 0, image: "img-b" });
    expect(await take(queue, ["img-b"])).toBe("b1");
    await clock.advance(1_000);
    expect(await take(queue, ["img-b"])).toBe("a1");
    expect(await take(queue, ["img-b"])).toBe("b2");
    await queue.close();
  });

  it("keeps priority over placement among items placed well, and ignores images when the reserve names none", async () => {
    const queue = new MemoryJobQueue({ clock: new ManualClock() });
    await queue.enqueue({ jobId: "a-low", stage: "init", priority: 0, image: "img-a" });
    await queue.enqueue({ jobId: "a-high", stage: "init", priority: 9, image: "img-a" });
    await queue.enqueue({ jobId: "b-top", stage: "init", priority: 20, image: "img-b" });
    expect(await take(queue)).toBe("b-top");
    expect(await take(queue, ["img-a"])).toBe("a-high");
    expect(await take(queue, ["img-a"])).toBe("a-low");
    await queue.close();
  });

  it("wakes a waiting worker that holds the new item's image before one that came earlier", async () => {
    const queue = new MemoryJobQueue({ clock: new ManualClock() });
    const first = queue.reserve("init", 60_000, never(), { images: ["img-a"] });
    const second = queue.reserve("init", 60_000, never(), { images: ["img-b"] });
    await queue.enqueue({ jobId: "b1", stage: "init", priority: 0, image: "img-b" });
    expect((await second)?.item.jobId).toBe("b1");
    // No waiting worker holds img-c: the first waiter takes it.
    await queue.enqueue({ jobId: "c1", stage: "init", priority: 0, image: "img-c" });
    expect((await first)?.item.jobId).toBe("c1");
    await queue.close();
  });
});

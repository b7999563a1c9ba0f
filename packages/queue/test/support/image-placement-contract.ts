import type { JobQueue } from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import type { QueueFixture } from "./job-queue-contract";

const never = () => new AbortController().signal;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the tests' items wait for a worker holding their image. */
const MAX_WAIT_MS = 400;

async function take(queue: JobQueue, images?: string[]) {
  const lease = await queue.reserve("init", 10_000, never(), images ? { images } : {});
  if (!lease) throw new Error("expected a lease, got null");
  await queue.ack(lease);
  return lease.item;
}

/** Image-aware placement as every `JobQueue` adapter does it; each test gets fresh queues. */
export function describeImagePlacementContract(
  name: string,
  open: (options: { placementMaxWaitMs: number }) => Promise<QueueFixture>,
): void {
  describe(`JobQueue image placement: ${name}`, () => {
    let fixture: QueueFixture | undefined;
    const fresh = async () => {
      fixture = await open({ placementMaxWaitMs: MAX_WAIT_MS });
      return fixture;
    };
    afterEach(async () => {
      await fixture?.dispose();
      fixture = undefined;
    });

    it("gives a worker items of the images it holds first, and the best item when none of them waits", async () => {
      const { queue, openPeer } = await fresh();
      const peer = await openPeer();
      await queue.enqueue({ jobId: "a1", stage: "init", priority: 0, image: "img-a" });
      await queue.enqueue({ jobId: "b1", stage: "init", priority: 0, image: "img-b" });
      await queue.enqueue({ jobId: "plain", stage: "init", priority: 0 });
      await queue.enqueue({ jobId: "b2", stage: "init", priority: 0, image: "img-b" });
      expect(await queue.depth("init")).toBe(4);
      const first = await take(peer, ["img-b"]);
      expect(first).toMatchObject({ jobId: "b1", image: "img-b" });
      // Needing no image, it is placed well anywhere: before the later b2.
      expect((await take(peer, ["img-b"])).jobId).toBe("plain");
      expect((await take(peer, ["img-b"])).jobId).toBe("b2");
      // Nothing of img-c waits: the worker takes what there is rather than idle.
      expect((await take(peer, ["img-c"])).jobId).toBe("a1");
      expect(await queue.depth("init")).toBe(0);
    });

    it("hands an item that waited past the bound to whoever asks, before the asker's own images", async () => {
      const { queue } = await fresh();
      await queue.enqueue({ jobId: "a1", stage: "init", priority: 0, image: "img-a" });
      await sleep(MAX_WAIT_MS + 100);
      await queue.enqueue({ jobId: "b1", stage: "init", priority: 0, image: "img-b" });
      expect((await take(queue, ["img-b"])).jobId).toBe("a1");
      expect((await take(queue, ["img-b"])).jobId).toBe("b1");
    });

    it("orders by priority when no images are named, and finds, removes and wakes on image items", async () => {
      const { queue, openPeer } = await fresh();
      const peer = await openPeer();
      const waiting = queue.reserve("init", 10_000, never(), { images: ["img-z"] });
      await sleep(50);
      // The first item of an image no reserver watched yet still wakes a waiting one.
      await peer.enqueue({ jobId: "new-image", stage: "init", priority: 0, image: "img-new" });
      const woken = await waiting;
      expect(woken?.item).toMatchObject({ jobId: "new-image", image: "img-new" });
      if (woken) await queue.ack(woken);

      await queue.enqueue({ jobId: "a-low", stage: "init", priority: 0, image: "img-a" });
      await queue.enqueue({ jobId: "b-top", stage: "init", priority: 20, image: "img-b" });
      await queue.enqueue({ jobId: "gone", stage: "init", priority: 50, image: "img-a" });
      expect(await peer.holds("gone", "init")).toBe(true);
      expect(await peer.remove("gone", "init")).toBe(true);
      expect(await peer.holds("gone", "init")).toBe(false);
      expect((await take(peer)).jobId).toBe("b-top");
      expect((await take(peer)).jobId).toBe("a-low");
    });
  });
}

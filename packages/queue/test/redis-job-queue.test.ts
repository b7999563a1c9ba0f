import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { RedisJobQueue } from "../src/index";
import { countKeys, deleteKeys, freshPrefix, REDIS_URL } from "./support/redis-test-env";

const never = () => new AbortController().signal;

async function clientsNamed(prefix: string): Promise<number> {
  const redis = new Redis(REDIS_URL);
  try {
    const list = (await redis.client("LIST")) as string;
    return list.split("\n").filter((line) => line.includes(` name=${prefix}:`)).length;
  } finally {
    await redis.quit();
  }
}

describe("RedisJobQueue (what only Redis has)", () => {
  let prefix = freshPrefix();
  afterEach(async () => {
    await deleteKeys(REDIS_URL, prefix);
    prefix = freshPrefix();
  });

  it("reports and drops a malformed entry, and serves the next one", async () => {
    const errors: string[] = [];
    const queue = new RedisJobQueue({ url: REDIS_URL, prefix, onError: (m) => errors.push(m) });
    // Something else wrote into our queue (an old version, a hand-made job).
    const foreign = new Queue("run", { connection: { url: REDIS_URL }, prefix });
    await foreign.add("item", { jobId: 42, stage: "nope" }, { jobId: "bad-1", priority: 1 });
    await foreign.close();
    await queue.enqueue({ jobId: "good", stage: "run", priority: 0 });
    const lease = await queue.reserve("run", 10_000, never());
    expect(lease?.item).toEqual({ jobId: "good", stage: "run", priority: 0, workerId: null });
    expect(errors.some((m) => m.includes("bad-1") && m.includes("malformed"))).toBe(true);
    expect(await queue.depth("run")).toBe(0);
    await queue.close();
  });

  it("keeps one waiting item per job and queue, and one more per item leased meanwhile", async () => {
    const errors: string[] = [];
    const queue = new RedisJobQueue({ url: REDIS_URL, prefix, onError: (m) => errors.push(m) });
    // Queued again while it waits (a re-queue after a Redis reconnect): not doubled.
    await queue.enqueue({ jobId: "x", stage: "init", priority: 0 });
    await queue.enqueue({ jobId: "x", stage: "init", priority: 0 });
    expect(await queue.depth("init")).toBe(1);
    // Queued again while leased, twice: one new item, since the first new one still waits.
    const first = await queue.reserve("init", 10_000, never());
    await queue.enqueue({ jobId: "x", stage: "init", priority: 0 });
    await queue.enqueue({ jobId: "x", stage: "init", priority: 0 });
    expect(await queue.depth("init")).toBe(1);
    const second = await queue.reserve("init", 10_000, never());
    expect(second?.item.jobId).toBe("x");
    expect(second?.deliveries).toBe(1);
    expect(await queue.reserve("init", 10_000, AbortSignal.timeout(300))).toBeNull();
    await queue.ack(first!);
    await queue.ack(second!);
    expect(await queue.holds("x", "init")).toBe(false);
    expect(errors).toEqual([]);
    await queue.close();
  });

  it("stops handing out an item whose leases keep expiring (maxLeaseExpiries)", async () => {
    const errors: string[] = [];
    const queue = new RedisJobQueue({
      url: REDIS_URL,
      prefix,
      stalledIntervalMs: 100,
      maxBlockMs: 200,
      maxLeaseExpiries: 1,
      onError: (m) => errors.push(m),
    });
    await queue.enqueue({ jobId: "poison", stage: "init", priority: 0 });
    expect((await queue.reserve("init", 150, never()))?.deliveries).toBe(1);
    expect((await queue.reserve("init", 150, never()))?.deliveries).toBe(2);
    // The second expiry passes the bound: BullMQ fails the item instead of delivering it again.
    expect(await queue.reserve("init", 150, AbortSignal.timeout(2_000))).toBeNull();
    expect(errors.some((m) => m.includes("poison") && m.includes("stalled more than allowable limit"))).toBe(
      true,
    );
    // Nothing of it stays behind: the engine may enqueue the job again (a fresh attempt).
    await queue.enqueue({ jobId: "poison", stage: "init", priority: 0 });
    expect((await queue.reserve("init", 10_000, AbortSignal.timeout(5_000)))?.deliveries).toBe(1);
    await queue.close();
  });

  it("closes every connection it opened and keeps its keys under its prefix", async () => {
    const queue = new RedisJobQueue({ url: REDIS_URL, prefix, maxBlockMs: 200 });
    await queue.enqueue({ jobId: "x", stage: "run", priority: 0, workerId: "w1" });
    const lease = await queue.reserve("run", 10_000, never(), { workerId: "w1" });
    await queue.reserve("eval", 10_000, AbortSignal.timeout(50));
    if (lease) await queue.ack(lease);
    expect(await clientsNamed(prefix)).toBeGreaterThan(0);
    expect(await countKeys(REDIS_URL, prefix)).toBeGreaterThan(0);
    await queue.close();
    expect(await clientsNamed(prefix)).toBe(0);
  });
});

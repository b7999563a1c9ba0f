import { BUS_CHANNELS } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisEventBus, RedisJobQueue } from "../src/index";
import { PrivateRedisServer } from "./support/private-redis-server";
import { freshPrefix } from "./support/redis-test-env";
import { until } from "./support/until";

// Restarts a redis-server of its own (never the shared one on 6379): no persistence, so a
// restart loses every key and subscription on the server side.
describe("after a Redis restart", () => {
  let server: PrivateRedisServer;
  beforeAll(async () => {
    server = await PrivateRedisServer.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it("the bus reconnects, restores its subscriptions and reports the outage", async () => {
    const prefix = freshPrefix();
    const errors: string[] = [];
    const subscriber = new RedisEventBus({ url: server.url, prefix, onError: (m) => errors.push(m) });
    const publisher = new RedisEventBus({ url: server.url, prefix, onError: () => {} });
    const seen: string[] = [];
    let restored = 0;
    subscriber.onRestored(() => {
      restored += 1;
    });
    await subscriber.subscribe(BUS_CHANNELS.cancel, (m) => seen.push(m));
    await publisher.publish(BUS_CHANNELS.cancel, "before");
    await until(() => seen.includes("before"), "the message before the restart");
    await server.restart();
    // Told once it is back (receivers then re-read from the store what they may have missed).
    await until(() => restored === 1, "the bus to say it is back");
    // Publishing again until one arrives: the subscriber re-subscribes once it has reconnected.
    let n = 0;
    const publishing = setInterval(() => void publisher.publish(BUS_CHANNELS.cancel, `after-${++n}`), 50);
    try {
      await until(() => seen.some((m) => m.startsWith("after-")), "a message after the restart");
    } finally {
      clearInterval(publishing);
    }
    expect(errors).toContain("redis subscriber: connection lost, reconnecting");
    expect(errors).toContain("redis subscriber: connection restored");
    await Promise.all([subscriber.close(), publisher.close()]);
  });

  it("a waiting reserver keeps waiting through the restart and gets what is enqueued after it", async () => {
    const prefix = freshPrefix();
    const errors: string[] = [];
    const options = { url: server.url, prefix, stalledIntervalMs: 200, maxBlockMs: 200 };
    const consumer = new RedisJobQueue({ ...options, onError: (m) => errors.push(m) });
    const producer = new RedisJobQueue({ ...options, onError: () => {} });
    await producer.enqueue({ jobId: "before", stage: "run", priority: 0, workerId: "w1" });
    const first = await consumer.reserve("run", 10_000, new AbortController().signal, { workerId: "w1" });
    expect(first?.item.jobId).toBe("before");
    const waiting = consumer.reserve("run", 10_000, new AbortController().signal, { workerId: "w1" });
    await server.restart();
    await producer.enqueue({ jobId: "after", stage: "run", priority: 0, workerId: "w1" });
    const lease = await waiting;
    expect(lease?.item).toMatchObject({ jobId: "after", workerId: "w1" });
    expect(lease?.deliveries).toBe(1);
    expect(errors).toContain("redis queue: connection lost, reconnecting");
    // The lease taken before the restart is gone with Redis's data: acking it is a no-op.
    if (first) await consumer.ack(first);
    await Promise.all([consumer.close(), producer.close()]);
  });
});

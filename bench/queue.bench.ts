// `npm run bench -- queue [--items 1000] [--concurrency 10] [--round-trips 200] [--redis redis://…]`
// The JobQueue adapters side by side: one item's round trip (enqueue → reserve → ack, one at a
// time) and the throughput of draining `items` with `concurrency` reservers while they are being
// enqueued. Redis runs on a fresh key prefix, deleted afterwards.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { type JobQueue, MemoryJobQueue } from "@raas/engine";
import { RedisJobQueue } from "@raas/queue";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { Bench, BenchRow } from "./bench.types";
import { median, percentile } from "./stats";

const never = () => new AbortController().signal;

async function roundTrips(queue: JobQueue, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await queue.enqueue({ jobId: `rt-${i}`, stage: "run", priority: 0 });
    const lease = await queue.reserve("run", 30_000, never());
    if (!lease) throw new Error("round trip: no lease");
    await queue.ack(lease);
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Items per second from the first enqueue to the last ack; `concurrency` producers and reservers. */
async function drain(queue: JobQueue, items: number, concurrency: number): Promise<number> {
  let acked = 0;
  const done = new AbortController();
  const started = performance.now();
  const consumers = Array.from({ length: concurrency }, async () => {
    for (;;) {
      const lease = await queue.reserve("init", 30_000, done.signal);
      if (!lease) return;
      await queue.ack(lease);
      acked += 1;
      if (acked === items) done.abort();
    }
  });
  let next = 0;
  const producers = Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < items; i = next++)
      await queue.enqueue({ jobId: `d-${i}`, stage: "init", priority: i % 5 });
  });
  await Promise.all([...producers, ...consumers]);
  return items / ((performance.now() - started) / 1_000);
}

/**
 * Reference: BullMQ on its own (a Worker with `concurrency` and a no-op processor, whose
 * completion fetches the next job in the same script) — what the port's separate reserve and ack
 * cost on top.
 */
async function bullmqReference(
  url: string,
  prefix: string,
  items: number,
  concurrency: number,
): Promise<number> {
  const connection = { url, maxRetriesPerRequest: null };
  const queue = new Queue("reference", { connection, prefix });
  let completed = 0;
  let finish: () => void = () => {};
  const allDone = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const worker = new Worker("reference", async () => null, {
    connection,
    prefix,
    concurrency,
    autorun: false,
  });
  worker.on("completed", () => {
    completed += 1;
    if (completed === items) finish();
  });
  await queue.waitUntilReady();
  const started = performance.now();
  void worker.run();
  let next = 0;
  const producers = Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < items; i = next++) {
      await queue.add("item", { i }, { priority: 1 + (i % 5), removeOnComplete: true });
    }
  });
  await Promise.all([...producers, allDone]);
  const itemsPerSec = items / ((performance.now() - started) / 1_000);
  await worker.close();
  await queue.close();
  return itemsPerSec;
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
  await redis.quit();
}

const bench: Bench = {
  name: "queue",
  description:
    "JobQueue adapters: enqueue→reserve→ack round trip, and items/s draining N items with C reservers (memory vs Redis/BullMQ)",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        items: { type: "string", default: "1000" },
        concurrency: { type: "string", default: "10" },
        "round-trips": { type: "string", default: "200" },
        redis: { type: "string", default: "redis://127.0.0.1:6379" },
      },
    });
    const items = Number(values.items);
    const concurrency = Number(values.concurrency);
    const trips = Number(values["round-trips"]);
    const url = values.redis as string;
    const prefix = `raas-bench-${randomUUID().slice(0, 8)}`;
    const adapters: Array<{ name: string; open: () => JobQueue }> = [
      { name: "memory", open: () => new MemoryJobQueue() },
      { name: "redis (BullMQ)", open: () => new RedisJobQueue({ url, prefix }) },
    ];
    const rows: BenchRow[] = [];
    try {
      for (const adapter of adapters) {
        const queue = adapter.open();
        await roundTrips(queue, 20); // warm-up: connections, scripts loaded
        const samples = await roundTrips(queue, trips);
        const itemsPerSec = await drain(queue, items, concurrency);
        await queue.close();
        rows.push({
          name: adapter.name,
          roundTripMedianMs: median(samples),
          roundTripP99Ms: percentile(samples, 99),
          [`itemsPerSec(${items}, c=${concurrency})`]: itemsPerSec,
        });
      }
      rows.push({
        name: "BullMQ Worker alone (reference)",
        roundTripMedianMs: null,
        roundTripP99Ms: null,
        [`itemsPerSec(${items}, c=${concurrency})`]: await bullmqReference(url, prefix, items, concurrency),
      });
    } finally {
      await deleteKeys(url, prefix);
    }
    const [memory, redis] = rows;
    const rate = (row: BenchRow | undefined) => Number(row?.[`itemsPerSec(${items}, c=${concurrency})`]);
    return {
      bench: "queue",
      description: bench.description,
      rows,
      summary: {
        memoryRoundTripMedianMs: Number(memory?.roundTripMedianMs),
        redisRoundTripMedianMs: Number(redis?.roundTripMedianMs),
        memoryItemsPerSec: Math.round(rate(memory)),
        redisItemsPerSec: Math.round(rate(redis)),
        redisThroughputVsMemory: Number((rate(redis) / rate(memory)).toFixed(4)),
        redisThroughputVsBullmqAlone: Number((rate(redis) / rate(rows[2])).toFixed(4)),
      },
      config: { items, concurrency, roundTrips: trips, redis: url },
    };
  },
};

export default bench;

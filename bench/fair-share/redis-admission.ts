// Slot-time of two runs (weights 3:1) admitted by a control-plane engine with no pools to the Redis
// INIT queue, run by a worker engine on the same Redis (moved here from the queue package's test:
// the ratio is a measurement of real time, the test keeps the order and counts).
import { randomUUID } from "node:crypto";
import { createSleepHandler, HandlerRegistry, MemoryJobStore, RolloutEngine } from "@raas/engine";
import { RedisEventBus, RedisJobQueue } from "@raas/queue";
import type { TStage } from "@raas/shared";
import { Redis } from "ioredis";

interface StageSpan {
  jobId: string;
  stage: TStage;
  startMs: number;
  endMs: number | null;
}

export interface RedisAdmissionResult {
  /** Slot-time of the weight-3 run over the weight-1 run's, in the measured window. */
  slotTimeRatio: number;
  jobsEnded: number;
  windowMs: number;
}

/** Resolves once `check` holds, looking every 20 ms (the jobs run on a real Redis, in real time). */
async function until(check: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    await redis.quit();
  }
}

/**
 * Runs `jobsPerRun` jobs of each run (heavy: weight 3, RUN 40 ms; light: weight 1, RUN 80 ms),
 * warms up for `warmUp` ended jobs, then measures slot-time until `measured` more have ended.
 */
export async function measureRedisAdmission(options: {
  url: string;
  jobsPerRun: number;
  warmUp: number;
  measured: number;
}): Promise<RedisAdmissionResult> {
  const prefix = `raas-bench-${randomUUID().slice(0, 8)}`;
  const store = new MemoryJobStore();
  const spans: StageSpan[] = [];
  const open = new Map<string, StageSpan>();
  const handlers = () =>
    new HandlerRegistry().register(
      createSleepHandler({
        onStage: ({ jobId, stage, phase }) => {
          const key = `${jobId} ${stage}`;
          if (phase === "start") {
            const span: StageSpan = { jobId, stage, startMs: performance.now(), endMs: null };
            spans.push(span);
            open.set(key, span);
          } else {
            const span = open.get(key);
            if (span) span.endMs = performance.now();
            open.delete(key);
          }
        },
      }),
    );
  const onError = () => {};
  const parts = (workerId: string) => ({
    queue: new RedisJobQueue({ url: options.url, prefix, maxBlockMs: 200, onError }),
    bus: new RedisEventBus({ url: options.url, prefix, onError }),
    workerId,
  });
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
  const control = parts("control");
  const work = parts("worker-1");
  const server = new RolloutEngine({
    store,
    handlers: handlers(),
    ...control,
    recoverAtStart: "unheld",
    pools: { init: pool(0), run: pool(0), eval: pool(0) },
    fairShare: { queuedAhead: 5, sweepEveryMs: 100 },
  });
  const worker = new RolloutEngine({
    store,
    handlers: handlers(),
    ...work,
    recoverAtStart: "unheld",
    pools: { init: pool(2), run: pool(3), eval: pool(2) },
  });
  await server.start();
  await worker.start();
  try {
    const jobs = (runId: string, weight: number, runMs: number) =>
      Array.from({ length: options.jobsPerRun }, () => ({
        kind: "sleep",
        payload: { initMs: 5, runMs, evalMs: 5 },
        batchId: runId,
        metadata: { runId, share: { weight, maxSandboxes: null } },
      }));
    const runOf = new Map<string, string>();
    for (const { job } of await server.submitJobs(jobs("run_heavy", 3, 40))) runOf.set(job.id, "run_heavy");
    for (const { job } of await server.submitJobs(jobs("run_light", 1, 80))) runOf.set(job.id, "run_light");
    const evalsEnded = () => spans.filter((s) => s.stage === "eval" && s.endMs !== null).length;
    await until(() => evalsEnded() >= options.warmUp, "the warm-up");
    const fromMs = performance.now();
    await until(() => evalsEnded() >= options.warmUp + options.measured, "the measured jobs");
    const toMs = performance.now();
    const slotMs = new Map<string, number>();
    for (const span of spans) {
      const start = Math.max(span.startMs, fromMs);
      const end = Math.min(span.endMs ?? toMs, toMs);
      const run = runOf.get(span.jobId) as string;
      if (end > start) slotMs.set(run, (slotMs.get(run) ?? 0) + (end - start));
    }
    await server.cancel({ batchId: "run_heavy" });
    await server.cancel({ batchId: "run_light" });
    return {
      slotTimeRatio: (slotMs.get("run_heavy") ?? 0) / (slotMs.get("run_light") ?? 1),
      jobsEnded: evalsEnded(),
      windowMs: toMs - fromMs,
    };
  } finally {
    for (const [engine, { queue, bus }] of [
      [server, control],
      [worker, work],
    ] as const) {
      await engine.stop({ graceMs: 100 });
      await queue.close();
      await bus.close();
    }
    await deleteKeys(options.url, prefix);
    await store.close();
  }
}

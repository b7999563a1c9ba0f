import { createSleepHandler, HandlerRegistry, MemoryJobStore, RolloutEngine } from "@raas/engine";
import type { TStage } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { RedisEventBus, RedisJobQueue } from "../src/index";
import { deleteKeys, freshPrefix, REDIS_URL } from "./support/redis-test-env";

/** Polls until `check` holds; the bound only stops a broken run from hanging. */
async function until(check: () => boolean, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface StageSpan {
  jobId: string;
  stage: TStage;
  startMs: number;
  endMs: number | null;
}

// Distributed mode in one process: a control-plane engine with no pools admits the jobs of two
// runs (weights 3:1) fairly to the Redis INIT queue and follows them through the Redis event bus;
// a worker engine on the same Redis runs every stage. Slot-time is measured from the worker's stage
// spans in a window of saturation.
describe("fair sharing with the stage queues on Redis", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it("gives two runs of weights 3:1 slot-time within ±10 % of 3:1 when a worker on Redis runs the stages", async () => {
    const prefix = freshPrefix();
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
    const parts = (workerId: string) => {
      const queue = new RedisJobQueue({ url: REDIS_URL, prefix, maxBlockMs: 200, onError });
      const bus = new RedisEventBus({ url: REDIS_URL, prefix, onError });
      return { queue, bus, workerId };
    };
    const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
    const control = parts("control");
    const server = new RolloutEngine({
      store,
      handlers: handlers(),
      ...control,
      recoverAtStart: "unheld",
      pools: { init: pool(0), run: pool(0), eval: pool(0) },
      // The workers' slots, which the control plane cannot see: INIT 2 + RUN 3.
      fairShare: { queuedAhead: 5, sweepEveryMs: 100 },
    });
    const work = parts("worker-1");
    const worker = new RolloutEngine({
      store,
      handlers: handlers(),
      ...work,
      recoverAtStart: "unheld",
      pools: { init: pool(2), run: pool(3), eval: pool(2) },
    });
    await server.start();
    await worker.start();
    closers.push(async () => {
      await deleteKeys(REDIS_URL, prefix);
      await store.close();
    });
    for (const [engine, { queue, bus }] of [
      [server, control],
      [worker, work],
    ] as const) {
      closers.push(async () => {
        await engine.stop({ graceMs: 100 });
        await queue.close();
        await bus.close();
      });
    }

    const jobs = (runId: string, weight: number, runMs: number) =>
      Array.from({ length: 250 }, () => ({
        kind: "sleep",
        payload: { initMs: 5, runMs, evalMs: 5 },
        batchId: runId,
        metadata: { runId, share: { weight, maxSandboxes: null } },
      }));
    const heavy = await server.submitJobs(jobs("run_heavy", 3, 40));
    const light = await server.submitJobs(jobs("run_light", 1, 80));
    const runOf = new Map<string, string>();
    for (const { job } of heavy) runOf.set(job.id, "run_heavy");
    for (const { job } of light) runOf.set(job.id, "run_light");

    const evalsEnded = () => spans.filter((s) => s.stage === "eval" && s.endMs !== null).length;
    await until(() => evalsEnded() >= 40, "a warm-up of 40 jobs");
    const fromMs = performance.now();
    await until(() => evalsEnded() >= 200, "200 jobs");
    const toMs = performance.now();
    const flows = server.fairShare();
    expect(flows.find((flow) => flow.flowId === "run_heavy")?.waiting).toBeGreaterThan(0);
    expect(flows.find((flow) => flow.flowId === "run_light")?.waiting).toBeGreaterThan(0);

    const slotMs = new Map<string, number>();
    for (const span of spans) {
      const start = Math.max(span.startMs, fromMs);
      const end = Math.min(span.endMs ?? toMs, toMs);
      const run = runOf.get(span.jobId) as string;
      if (end > start) slotMs.set(run, (slotMs.get(run) ?? 0) + (end - start));
    }
    const ratio = (slotMs.get("run_heavy") ?? 0) / (slotMs.get("run_light") ?? 1);
    expect(ratio).toBeGreaterThan(2.7);
    expect(ratio).toBeLessThan(3.3);
    await server.cancel({ batchId: "run_heavy" });
    await server.cancel({ batchId: "run_light" });
  }, 240_000);
});

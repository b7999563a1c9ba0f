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

/** One stage event on the worker, in the order the worker saw them. */
interface StageEvent {
  jobId: string;
  stage: TStage;
  phase: "start" | "cleanup";
}

// Distributed mode in one process: a control-plane engine with no pools admits the jobs of two
// runs (weights 3:1) fairly to the Redis INIT queue and follows them through the Redis event bus;
// a worker engine on the same Redis runs every stage. The test asserts the order and counts of the
// worker's stage events; the slot-time ratio (3:1 within ±10 %) is real time and is measured by
// `npm run bench -- fair-share`. The polls below wait on Redis, an external process.
describe("fair sharing with the stage queues on Redis", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it("serves two backlogged runs of weights 3:1 through Redis, the heavier more, each job's stages in order", async () => {
    const prefix = freshPrefix();
    const store = new MemoryJobStore();
    const events: StageEvent[] = [];
    const handlers = () =>
      new HandlerRegistry().register(
        createSleepHandler({
          onStage: ({ jobId, stage, phase }) => void events.push({ jobId, stage, phase }),
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
      Array.from({ length: 150 }, () => ({
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

    const evalsEnded = () => events.filter((e) => e.stage === "eval" && e.phase === "cleanup");
    await until(() => evalsEnded().length >= 80, "80 jobs");
    // Both runs are still backlogged: what follows is a share of saturated slots.
    const flows = server.fairShare();
    expect(flows.find((flow) => flow.flowId === "run_heavy")?.waiting).toBeGreaterThan(0);
    expect(flows.find((flow) => flow.flowId === "run_light")?.waiting).toBeGreaterThan(0);

    const ended = evalsEnded().map((e) => e.jobId);
    // Each ended job went INIT → RUN → EVAL on the worker, each stage started and cleaned up once.
    for (const jobId of ended) {
      expect(events.filter((e) => e.jobId === jobId).map((e) => `${e.stage} ${e.phase}`)).toEqual([
        "init start",
        "init cleanup",
        "run start",
        "run cleanup",
        "eval start",
        "eval cleanup",
      ]);
    }
    // Both runs were served; the weight-3 run (whose jobs are also half as long) ended more jobs.
    const endedOf = (run: string) => ended.filter((jobId) => runOf.get(jobId) === run).length;
    expect(endedOf("run_light")).toBeGreaterThan(0);
    expect(endedOf("run_heavy")).toBeGreaterThan(endedOf("run_light"));
    await server.cancel({ batchId: "run_heavy" });
    await server.cancel({ batchId: "run_light" });
  }, 240_000);
});

import { afterEach, describe, expect, it } from "vitest";
import type { EngineOptions } from "../src/engine.types";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import { MIN_ADMISSION_WINDOW } from "../src/scheduling/fair-share-options";
import { ManualClock } from "../src/testing/manual-clock";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const pools = (init: number, run: number, evalSize: number): EngineOptions["pools"] => {
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
  return { init: pool(init), run: pool(run), eval: pool(evalSize) };
};

/** An engine on the given store and queue, stopped after the test (the queue and store are the caller's). */
async function startEngine(options: Omit<EngineOptions, "handlers">): Promise<RolloutEngine> {
  const engine = new RolloutEngine({
    ...options,
    handlers: new HandlerRegistry().register(createSleepHandler()),
  });
  await engine.start();
  closing.push(() => engine.stop({ graceMs: 0 }));
  return engine;
}

const sleepJobs = (count: number, runId = "run_a") =>
  Array.from({ length: count }, () => ({
    kind: "sleep",
    payload: { initMs: 1, runMs: 1, evalMs: 1 },
    metadata: { runId },
  }));

// An API-only control plane (no pools of its own): how many jobs it releases to the INIT queue
// follows the workers' INIT + RUN slots as `capacity` reports them, read on the injected clock.
describe("the admission window follows the live capacity", () => {
  it("keeps a floor before any worker reported, then grows with the workers' slots", async () => {
    const clock = new ManualClock();
    const queue = new MemoryJobQueue({ clock });
    const store = new MemoryJobStore();
    closing.push(() => queue.close());
    let slots: number | null = null;
    const engine = await startEngine({
      store,
      queue,
      clock,
      pools: pools(0, 0, 0),
      fairShare: { capacity: async () => slots, capacityEveryMs: 3_000, sweepEveryMs: 500 },
    });
    await engine.submitJobs(sleepJobs(30));
    expect(await queue.depth("init")).toBe(MIN_ADMISSION_WINDOW);

    slots = 2 * (4 + 4); // two workers registered: INIT 4 + RUN 4 each
    await clock.advance(3_000);
    expect(await queue.depth("init")).toBe(16);
    expect(engine.fairShare()[0]).toMatchObject({ waiting: 14, inService: 16 });

    slots = 4 * (4 + 4);
    await clock.advance(3_000);
    expect(await queue.depth("init")).toBe(30);
  });

  it("keeps the last capacity when a read fails", async () => {
    const clock = new ManualClock();
    const queue = new MemoryJobQueue({ clock });
    closing.push(() => queue.close());
    let fail = false;
    const engine = await startEngine({
      store: new MemoryJobStore(),
      queue,
      clock,
      pools: pools(0, 0, 0),
      fairShare: {
        capacity: async () => {
          if (fail) throw new Error("registry unreachable");
          return 10;
        },
        capacityEveryMs: 1_000,
      },
    });
    await engine.submitJobs(sleepJobs(30));
    expect(await queue.depth("init")).toBe(10);
    fail = true;
    await clock.advance(5_000);
    expect(await queue.depth("init")).toBe(10);
  });

  it("is the fixed queuedAhead when one is given", async () => {
    const queue = new MemoryJobQueue();
    closing.push(() => queue.close());
    const engine = await startEngine({
      store: new MemoryJobStore(),
      queue,
      pools: pools(0, 0, 0),
      fairShare: { queuedAhead: 2, capacity: async () => 64 },
    });
    await engine.submitJobs(sleepJobs(10));
    expect(await queue.depth("init")).toBe(2);
  });
});

// A control plane restarted while it held jobs back: the jobs it had released keep their queue
// items (workers go on with them), the ones it held go back through admission and are released
// within the window — never all at once — and a queue re-fill (`requeueQueuedJobs`) leaves them held.
describe("admission across a control-plane restart", () => {
  it("re-admits the held jobs within the window and adopts the released ones", async () => {
    const store = new MemoryJobStore();
    const queue = new MemoryJobQueue();
    const bus = new MemoryEventBus();
    closing.push(async () => {
      await queue.close();
      await bus.close();
    });
    const control = (workerId: string): Omit<EngineOptions, "handlers"> => ({
      store,
      queue,
      bus,
      workerId,
      recoverAtStart: "unheld",
      pools: pools(0, 0, 0),
      fairShare: { queuedAhead: 3, sweepEveryMs: 50 },
    });
    const first = await startEngine(control("server-1"));
    const ids = (await first.submitJobs(sleepJobs(20))).map((result) => result.job.id);
    expect(await queue.depth("init")).toBe(3);
    await first.stop({ graceMs: 0 });

    const second = await startEngine(control("server-2"));
    // The 3 released items are still queued, once each; the 17 held jobs wait in admission.
    expect(await queue.depth("init")).toBe(3);
    expect(second.fairShare()[0]).toMatchObject({ waiting: 17, inService: 3 });
    expect(await second.requeueQueuedJobs()).toBe(3);
    // A worker process re-queues RUN and EVAL only (INIT is the control plane's): none here.
    expect(await second.requeueQueuedJobs({ stages: ["run", "eval"] })).toBe(0);
    expect(second.fairShare()[0]).toMatchObject({ waiting: 17 });

    // A worker takes the work: every job completes, the held ones released as others leave.
    const worker = await startEngine({
      store,
      queue,
      bus,
      workerId: "worker-1",
      recoverAtStart: "unheld",
      pools: pools(2, 2, 2),
    });
    const { jobs, done } = await worker.waitForJobs(ids, { timeoutMs: 30_000 });
    expect(done).toBe(true);
    expect(jobs.filter((job) => job.status === "completed")).toHaveLength(20);
    expect(second.fairShare().reduce((sum, flow) => sum + flow.waiting, 0)).toBe(0);
  });
});

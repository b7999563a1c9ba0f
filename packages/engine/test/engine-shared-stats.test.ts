import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";

const started: RolloutEngine[] = [];

afterEach(async () => {
  for (const made of started.splice(0)) await made.stop({ graceMs: 0 });
});

/** Two processes of one deployment: an API-only engine (no pools) and a worker running every pool. */
async function deployment() {
  const shared = { store: new MemoryJobStore(), queue: new MemoryJobQueue(), bus: new MemoryEventBus() };
  const handlers = new HandlerRegistry().register(createSleepHandler());
  const pools = (concurrency: number) => {
    const pool = { concurrency, timeoutMs: 10_000 };
    return { init: pool, run: pool, eval: pool };
  };
  const api = new RolloutEngine({ ...shared, handlers, workerId: "api", pools: pools(0) });
  const worker = new RolloutEngine({ ...shared, handlers, workerId: "worker", pools: pools(2) });
  for (const made of [api, worker]) {
    await made.start();
    started.push(made);
  }
  return { api, worker };
}

describe("RolloutEngine stats across processes", () => {
  it("counts the jobs another process finished in this process's totals, each once", async () => {
    const { api, worker } = await deployment();
    const payload = { initMs: 1, runMs: 1, evalMs: 1 };
    const results = await api.submitJobs([
      { kind: "sleep", payload: { ...payload, reward: 1 } },
      { kind: "sleep", payload: { ...payload, reward: 1 } },
      { kind: "sleep", payload: { ...payload, fail: { run: { rate: 1, kind: "inference" } } } },
    ]);
    const ids = results.map((result) => result.job.id);
    const { done } = await api.waitForJobs(ids, { timeoutMs: 10_000 });
    expect(done).toBe(true);
    // The worker ran every job; the API-only engine counted each end as it heard it (over the bus,
    // or reading the store), before its wait could return.
    for (const made of [api, worker]) {
      const stats = made.stats();
      expect(stats.completed).toBe(2);
      expect(stats.failedByKind.inference).toBe(1);
      expect(stats.stages.init.queued + stats.stages.run.active).toBe(0);
    }
    expect(api.stats().stages.init.concurrency).toBe(0);
  });
});

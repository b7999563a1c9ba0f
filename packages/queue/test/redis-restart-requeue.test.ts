import { createSleepHandler, HandlerRegistry, MemoryJobStore, RolloutEngine } from "@raas/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisJobQueue } from "../src/index";
import { PrivateRedisServer } from "./support/private-redis-server";
import { freshPrefix } from "./support/redis-test-env";
import { until } from "./support/until";

// A redis-server of the test's own (no persistence) restarted under a running engine: every queue
// item is gone afterwards. The queue reports the outage and its end; re-queueing from the store
// on `onRestored` (what a composition root wires) leaves no job stuck.
describe("an engine on a Redis that restarts without its data", () => {
  let server: PrivateRedisServer;
  beforeAll(async () => {
    server = await PrivateRedisServer.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it("reports the outage and re-queues every queued job from the store; all complete once", async () => {
    const errors: string[] = [];
    const requeues: Array<Promise<number>> = [];
    let engine: RolloutEngine | undefined;
    const queue = new RedisJobQueue({
      url: server.url,
      prefix: freshPrefix(),
      stalledIntervalMs: 500,
      maxBlockMs: 200,
      onError: (message) => errors.push(message),
      onRestored: () => {
        if (engine) requeues.push(engine.requeueQueuedJobs());
      },
    });
    const stageStarts: string[] = [];
    const handlers = new HandlerRegistry().register(
      createSleepHandler({
        onStage: (e) => {
          if (e.phase === "start") stageStarts.push(`${e.jobId}:${e.stage}`);
        },
      }),
    );
    const pool = (concurrency: number) => ({ concurrency, timeoutMs: 30_000 });
    engine = new RolloutEngine({
      store: new MemoryJobStore(),
      queue,
      handlers,
      workerId: "w1",
      pools: { init: pool(4), run: pool(0), eval: pool(4) },
    });
    await engine.start();
    try {
      const payload = { initMs: 1, runMs: 1, evalMs: 1 };
      const submit = async () => (await engine.submitJob({ kind: "sleep", payload })).job.id;
      // Three jobs wait for RUN (addressed to w1, which holds their sandboxes), two for INIT.
      const atRun = [await submit(), await submit(), await submit()];
      await until(async () => {
        const jobs = await Promise.all(atRun.map((id) => engine.getJob(id)));
        return jobs.every((job) => job.status === "queued" && job.stage === "run");
      }, "three jobs queued for RUN");
      engine.setConcurrency("init", 0);
      const atInit = [await submit(), await submit()];
      await engine.flush();
      // The RUN items are queued once each transition is stored: wait for them to be in Redis.
      await until(async () => (await queue.depth("run")) === 3, "three RUN items in Redis");

      await server.restart();
      await until(() => requeues.length > 0, "the queue to report its connection restored");
      expect(await Promise.all(requeues)).toContain(5);
      expect(errors).toContain("redis queue: connection lost, reconnecting");
      expect(errors).toContain("redis queue: connection restored");

      engine.setConcurrency("init", 4);
      engine.setConcurrency("run", 4);
      const ids = [...atRun, ...atInit];
      const { jobs, done } = await engine.waitForJobs(ids, { timeoutMs: 60_000 });
      expect(done).toBe(true);
      for (const job of jobs) expect(job).toMatchObject({ status: "completed", attempts: 1 });
      // Each stage ran once per job: RUN with the sandbox INIT made before the restart.
      for (const id of ids) {
        expect(stageStarts.filter((s) => s.startsWith(`${id}:`))).toEqual([
          `${id}:init`,
          `${id}:run`,
          `${id}:eval`,
        ]);
      }
    } finally {
      await engine.stop({ graceMs: 0 });
      await queue.close();
    }
  });
});

import type { TStage } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import { jobReaches } from "./engine-harness";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** One engine whose pools start at the given sizes, recording on which worker each stage ran. */
async function engineWithPools(sizes: Record<TStage, number>) {
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const starts: Array<{ jobId: string; stage: TStage }> = [];
  const handlers = new HandlerRegistry().register(
    createSleepHandler({
      onStage: (event) => {
        if (event.phase === "start") starts.push({ jobId: event.jobId, stage: event.stage });
      },
    }),
  );
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 10_000 });
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    workerId: "w1",
    pools: { init: pool(sizes.init), run: pool(sizes.run), eval: pool(sizes.eval) },
  });
  await engine.start();
  closing.push(async () => {
    await engine.stop({ graceMs: 0 });
    await queue.close();
  });
  return { engine, store, queue, starts };
}

const payload = { initMs: 1, runMs: 1, evalMs: 1 };

// A queue that lost its items (Redis restarted without persistence) leaves jobs stored as queued
// with nothing that would ever deliver them; `requeueQueuedJobs` queues them again from the store.
describe("RolloutEngine.requeueQueuedJobs", () => {
  it("queues INIT again for jobs whose INIT item vanished; each then runs once", async () => {
    const { engine, queue, starts } = await engineWithPools({ init: 0, run: 2, eval: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await engine.submitJob({ kind: "sleep", payload })).job.id);
    for (const id of ids) expect(await queue.remove(id, "init")).toBe(true);
    expect(await queue.depth("init")).toBe(0);

    expect(await engine.requeueQueuedJobs()).toBe(3);
    expect(await queue.depth("init")).toBe(3);
    engine.setConcurrency("init", 2);
    const { jobs, done } = await engine.waitForJobs(ids, { timeoutMs: 20_000 });
    expect(done).toBe(true);
    expect(jobs.map((job) => job.status)).toEqual(["completed", "completed", "completed"]);
    for (const id of ids) {
      expect(starts.filter((s) => s.jobId === id).map((s) => s.stage)).toEqual(["init", "run", "eval"]);
    }
  });

  it("queues RUN again addressed to the worker holding the sandbox, which runs it with that sandbox", async () => {
    const { engine, store, queue, starts } = await engineWithPools({ init: 2, run: 0, eval: 2 });
    const { job } = await engine.submitJob({ kind: "sleep", payload });
    await jobReaches(engine, job.id, (stored) => stored.stage === "run");
    await engine.flush();
    expect(await queue.remove(job.id, "run")).toBe(true);

    expect(await engine.requeueQueuedJobs()).toBe(1);
    engine.setConcurrency("run", 2);
    const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 20_000 });
    // The sleep handler's EVAL result names INIT's sandbox: RUN and EVAL ran with it, no restart.
    expect(jobs[0]).toMatchObject({ status: "completed", attempts: 1 });
    expect(jobs[0]?.result).toMatchObject({ sandbox: `sleep-${job.id}` });
    expect(starts.map((s) => s.stage)).toEqual(["init", "run", "eval"]);
    expect((await store.readJob(job.id))?.handoff).toMatchObject({ workerId: "w1" });
  });

  it("queues nothing for jobs that are not waiting in a queue", async () => {
    const { engine, queue } = await engineWithPools({ init: 2, run: 2, eval: 2 });
    const { job } = await engine.submitJob({ kind: "sleep", payload });
    await engine.waitForJobs([job.id], { timeoutMs: 20_000 });
    expect(await engine.requeueQueuedJobs()).toBe(0);
    expect(await queue.depth("init")).toBe(0);
  });
});

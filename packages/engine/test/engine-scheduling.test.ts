import { afterEach, describe, expect, it } from "vitest";
import { createJobRecord } from "../src/lifecycle/job-factory";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { ManualClock } from "../src/testing/manual-clock";
import { startTestEngine } from "./engine-harness";

let harness: Awaited<ReturnType<typeof startTestEngine>> | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("RolloutEngine scheduling", () => {
  it("returns the same job for the same jobKey, also for concurrent submits", async () => {
    harness = await startTestEngine();
    const [a, b] = await Promise.all([
      harness.engine.submitJob({ kind: "sleep", payload: {}, jobKey: "k1" }),
      harness.engine.submitJob({ kind: "sleep", payload: {}, jobKey: "k1" }),
    ]);
    expect(a.job.id).toBe(b.job.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    await harness.engine.waitForJobs([a.job.id], { timeoutMs: 5_000 });
    const again = await harness.engine.submitJob({ kind: "sleep", payload: {}, jobKey: "k1" });
    expect(again).toMatchObject({ created: false, job: { id: a.job.id, status: "completed" } });
    expect((await harness.engine.listJobs({})).items).toHaveLength(1);
  });

  it("starts higher-priority jobs first within a stage", async () => {
    harness = await startTestEngine({ concurrency: { init: 0 } });
    const priorities = [0, 10, -5, 3];
    const submitted: Array<{ job: { id: string } }> = [];
    for (const priority of priorities) {
      submitted.push(
        await harness.engine.submitJob({
          kind: "sleep",
          payload: { initMs: 1, runMs: 1, evalMs: 1 },
          priority,
        }),
      );
    }
    harness.engine.setConcurrency("init", 1);
    await harness.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 5_000 },
    );
    const initOrder = harness.events
      .filter((e) => e.stage === "init" && e.phase === "start")
      .map((e) => e.jobId);
    const byPriority = [1, 3, 0, 2].map((i) => submitted[i]!.job.id);
    expect(initOrder).toEqual(byPriority);
  });

  it("changes pool concurrency at run time", async () => {
    // On a manual clock no RUN ends (300 ms) while the test looks: the counts are the pool's alone.
    harness = await startTestEngine({ clock: new ManualClock(), concurrency: { run: 1 } });
    const jobs = await harness.engine.submitJobs(
      Array.from({ length: 6 }, () => ({ kind: "sleep", payload: { initMs: 1, runMs: 300, evalMs: 1 } })),
    );
    const runs = () => harness!.engine.stats().stages.run;
    for (let ms = 0; ms < 10 && runs().queued < 5; ms++) await harness.advance(1);
    expect(runs()).toMatchObject({ active: 1, queued: 5 });
    harness.engine.setConcurrency("run", 4);
    await harness.advance(1);
    expect(runs()).toMatchObject({ active: 4, queued: 2 });
    expect(harness.engine.stats().stages.run.concurrency).toBe(4);
    harness.engine.setConcurrency("run", 0);
    await harness.engine.cancel({ jobId: jobs[5]!.job.id });
    expect(() => harness!.engine.setConcurrency("run", -1)).toThrow(/concurrency must be/);
  });

  it("re-runs jobs a previous process left unfinished, from INIT with a new attempt", async () => {
    const store = new MemoryJobStore();
    const orphan = {
      ...createJobRecord(
        { kind: "sleep", payload: { initMs: 1, runMs: 1, evalMs: 1 }, priority: 0, policyId: "default" },
        Date.now(),
      ),
      status: "active" as const,
      stage: "run" as const,
    };
    const done = {
      ...createJobRecord({ kind: "sleep", payload: {}, priority: 0, policyId: "default" }, Date.now()),
      status: "completed" as const,
      stage: "eval" as const,
    };
    await store.insertJobs([orphan, done]);
    const staleTurn = {
      jobId: orphan.id,
      index: 0,
      promptIds: [1],
      responseIds: [2],
      logprobs: [-0.1],
      backendId: null,
      weightVersion: null,
      cachedPromptTokens: 0,
      latencyMs: 1,
      finishReason: null,
      text: null,
      createdAtMs: 1,
    };
    await store.appendTurns([staleTurn]);
    harness = await startTestEngine({ store });
    const { jobs } = await harness.engine.waitForJobs([orphan.id], { timeoutMs: 5_000 });
    expect(jobs[0]).toMatchObject({ status: "completed", attempts: 2 });
    expect(await store.listTurns(orphan.id)).toEqual([]);
    expect(harness.engine.stats().completed).toBe(2);
  });

  it("lists jobs with filters and cursor pagination, newest first", async () => {
    harness = await startTestEngine({ concurrency: { init: 0 } });
    const created: Array<{ id: string }> = [];
    for (let i = 0; i < 5; i += 1)
      created.push((await harness.engine.submitJob({ kind: "sleep", payload: {}, jobKey: `key-${i}` })).job);
    const page1 = await harness.engine.listJobs({ limit: 2 });
    expect(page1.items.map((j) => j.jobKey)).toEqual(["key-4", "key-3"]);
    const page2 = await harness.engine.listJobs({ limit: 2, cursor: page1.nextCursor ?? undefined });
    expect(page2.items.map((j) => j.jobKey)).toEqual(["key-2", "key-1"]);
    const page3 = await harness.engine.listJobs({ limit: 2, cursor: page2.nextCursor ?? undefined });
    expect(page3.items.map((j) => j.jobKey)).toEqual(["key-0"]);
    expect(page3.nextCursor).toBeNull();
    expect((await harness.engine.listJobs({ search: "KEY-3" })).items.map((j) => j.id)).toEqual([
      created[3]!.id,
    ]);
    await harness.engine.cancel({ jobId: created[0]!.id });
    expect((await harness.engine.listJobs({ status: "cancelled" })).items).toHaveLength(1);
    expect((await harness.engine.listJobs({ status: "queued", stage: "init" })).items).toHaveLength(4);
  });

  it("waitForJobs returns done=false with current states on timeout", async () => {
    harness = await startTestEngine({ concurrency: { init: 0 } });
    const { job } = await harness.engine.submitJob({ kind: "sleep", payload: {} });
    const result = await harness.engine.waitForJobs([job.id], { timeoutMs: 30 });
    expect(result.done).toBe(false);
    expect(result.jobs[0]?.status).toBe("queued");
    await expect(harness.engine.waitForJobs(["job_nope"], { timeoutMs: 10 })).rejects.toMatchObject({
      failure: {
        code: "NOT_FOUND",
      },
    });
  });
});

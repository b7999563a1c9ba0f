import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../src/testing/manual-clock";
import { jobReaches, startTestEngine } from "./engine-harness";

let harness: Awaited<ReturnType<typeof startTestEngine>> | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("RolloutEngine cancellation", () => {
  it("cancels a queued job without running it", async () => {
    harness = await startTestEngine({ concurrency: { init: 0 } });
    const { job } = await harness.engine.submitJob({ kind: "sleep", payload: {} });
    expect((await harness.engine.cancel({ jobId: job.id })).cancelled).toEqual([job.id]);
    const after = await harness.engine.getJob(job.id);
    expect(after.status).toBe("cancelled");
    expect(after.failure).toMatchObject({ kind: "cancelled", stage: "init" });
    // A job submitted after it runs to the end once INIT opens: the cancelled one was passed over.
    const { job: later } = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1 },
    });
    harness.engine.setConcurrency("init", 2);
    const { jobs } = await harness.engine.waitForJobs([later.id], { timeoutMs: 30_000 });
    expect(jobs[0]?.status).toBe("completed");
    expect(harness.events.filter((e) => e.jobId === job.id)).toEqual([]);
    expect((await harness.engine.cancel({ jobId: job.id })).cancelled).toEqual([]);
  });

  for (const stage of ["init", "run", "eval"] as const) {
    it(`cancels a job active in ${stage}, reaching the handler and running the stage cleanup`, async () => {
      harness = await startTestEngine({ clock: new ManualClock() });
      // The stage sleeps an hour of clock time, which is never reached: a job that ends cancelled
      // was ended by the cancel, not by its stage finishing.
      const payload = { initMs: 1, runMs: 1, evalMs: 1, [`${stage}Ms`]: 3_600_000 };
      const { job } = await harness.engine.submitJob({ kind: "sleep", payload });
      await harness.advanceUntil(harness.reached({ jobId: job.id, stage, phase: "start" }), 60_000);
      await harness.engine.cancel({ jobId: job.id });
      const { jobs } = await harness.engine.waitForJobs([job.id], { timeoutMs: 30_000 });
      expect(jobs[0]?.status).toBe("cancelled");
      const stages = ["init", "run", "eval"] as const;
      const started = harness.events.filter((e) => e.jobId === job.id && e.phase === "start");
      expect(started.map((e) => e.stage)).toEqual(stages.slice(0, stages.indexOf(stage) + 1));
      expect(jobs[0]?.failure).toEqual({ kind: "cancelled", stage, message: `cancelled during ${stage}` });
      expect(jobs[0]?.trainable).toBe(false);
      expect(
        harness.events.some((e) => e.jobId === job.id && e.stage === stage && e.phase === "cleanup"),
      ).toBe(true);
    });
  }

  it("does not wait for a handler that ignores the abort signal, and still runs its cleanup", async () => {
    harness = await startTestEngine({ clock: new ManualClock() });
    const { job } = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 10_000, ignoreAbort: true },
    });
    await harness.advanceUntil(harness.reached({ jobId: job.id, stage: "run", phase: "start" }), 100);
    await harness.engine.cancel({ jobId: job.id });
    const { jobs } = await harness.engine.waitForJobs([job.id], { timeoutMs: 1_000 });
    expect(jobs[0]?.status).toBe("cancelled");
    expect(harness.events.some((e) => e.jobId === job.id && e.stage === "run" && e.phase === "cleanup")).toBe(
      true,
    );
  });

  it("cancels every unfinished job of a group or a batch and leaves others alone", async () => {
    harness = await startTestEngine({ concurrency: { init: 1 } });
    const slow = { initMs: 5_000 };
    const groupJobs = await harness.engine.submitJobs([
      { kind: "sleep", payload: slow, groupId: "g1", batchId: "b1" },
      { kind: "sleep", payload: slow, groupId: "g1", batchId: "b1" },
    ]);
    const other = await harness.engine.submitJob({
      kind: "sleep",
      payload: slow,
      groupId: "g2",
      batchId: "b1",
    });
    const outsider = await harness.engine.submitJob({
      kind: "sleep",
      payload: slow,
      groupId: "g3",
      batchId: "b2",
    });
    const byGroup = await harness.engine.cancel({ groupId: "g1" });
    expect(byGroup.cancelled.sort()).toEqual(groupJobs.map((r) => r.job.id).sort());
    const byBatch = await harness.engine.cancel({ batchId: "b1" });
    expect(byBatch.cancelled).toEqual([other.job.id]);
    await jobReaches(harness.engine, other.job.id, (job) => job.status === "cancelled");
    expect((await harness.engine.getJob(outsider.job.id)).status).not.toBe("cancelled");
    await expect(harness.engine.cancel({ jobId: "a", groupId: "b" } as never)).rejects.toMatchObject({
      failure: {
        code: "VALIDATION_FAILED",
      },
    });
  });
});

import { FailureError } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../src/testing/manual-clock";
import { startTestEngine } from "./engine-harness";

let harness: Awaited<ReturnType<typeof startTestEngine>> | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("RolloutEngine lifecycle", () => {
  it("runs a job through INIT, RUN and EVAL and reports per-stage timings", async () => {
    const clock = new ManualClock();
    harness = await startTestEngine({ clock });
    const { job, created } = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 20, runMs: 40, evalMs: 20, reward: 0.5 },
    });
    expect(created).toBe(true);
    expect(["queued", "active"]).toContain(job.status);
    for (const [stage, ms] of [
      ["init", 20],
      ["run", 40],
      ["eval", 20],
    ] as const) {
      await harness.reached({ jobId: job.id, stage, phase: "start" });
      await harness.advance(ms);
    }
    const { jobs, done } = await harness.engine.waitForJobs([job.id], { timeoutMs: 5_000 });
    expect(done).toBe(true);
    const finished = jobs[0]!;
    expect(finished.status).toBe("completed");
    expect(finished.reward).toBe(0.5);
    expect(finished.trainable).toBe(true);
    expect(finished.result).toEqual({ sandbox: `sleep-${job.id}`, steps: 1 });
    // Time moved only inside the stages, by exactly what each slept.
    expect(finished.timings).toEqual({ queueMs: 0, initMs: 20, runMs: 40, evalMs: 20 });
    await harness.engine.flush();
    const stored = await harness.store.getJob(job.id);
    expect(stored?.status).toBe("completed");
    expect(harness.events.filter((e) => e.jobId === job.id).map((e) => `${e.stage}:${e.phase}`)).toEqual([
      "init:start",
      "init:cleanup",
      "run:start",
      "run:cleanup",
      "eval:start",
      "eval:cleanup",
    ]);
  });

  it("overlaps stages of different jobs: a slow EVAL never holds a RUN slot", async () => {
    const clock = new ManualClock();
    harness = await startTestEngine({ clock, concurrency: { init: 1, run: 1, eval: 1 } });
    const slow = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 400 },
    });
    await harness.reached({ jobId: slow.job.id, stage: "init", phase: "start" });
    await harness.advance(1);
    await harness.reached({ jobId: slow.job.id, stage: "run", phase: "start" });
    await harness.advance(1);
    await harness.reached({ jobId: slow.job.id, stage: "eval", phase: "start" });
    const fast = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 50, evalMs: 1 },
    });
    await harness.reached({ jobId: fast.job.id, stage: "init", phase: "start" });
    await harness.advance(1);
    await harness.reached({ jobId: fast.job.id, stage: "run", phase: "start" });
    await harness.advance(50);
    await harness.reached({ jobId: fast.job.id, stage: "run", phase: "cleanup" });
    const slowJob = await harness.engine.getJob(slow.job.id);
    expect([slowJob.status, slowJob.stage]).toEqual(["active", "eval"]);
  });

  it("times a stage out by time inside the stage only, not queue time", async () => {
    const clock = new ManualClock();
    harness = await startTestEngine({ clock, concurrency: { init: 1 } });
    // The second job waits 700 ms for the single INIT slot, longer than its 600 ms INIT budget,
    // and must still complete: only the 100 ms inside INIT count.
    const first = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 700, runMs: 1, evalMs: 1 },
    });
    const second = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 100, runMs: 1, evalMs: 1 },
      timeoutsMs: { init: 600 },
    });
    const third = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 2_000, evalMs: 1 },
      timeoutsMs: { run: 60 },
    });
    await harness.reached({ jobId: first.job.id, stage: "init", phase: "start" });
    await harness.advance(700);
    await harness.reached({ jobId: second.job.id, stage: "init", phase: "start" });
    await harness.advance(100);
    await harness.reached({ jobId: third.job.id, stage: "init", phase: "start" });
    await harness.advance(1);
    await harness.reached({ jobId: third.job.id, stage: "run", phase: "start" });
    await harness.advance(60);
    await harness.reached({ jobId: third.job.id, stage: "run", phase: "cleanup" });
    // Everything left sleeps 1 ms a stage.
    await harness.advance(10);
    const { jobs } = await harness.engine.waitForJobs([first.job.id, second.job.id, third.job.id], {
      timeoutMs: 5_000,
    });
    const [a, b, c] = jobs;
    expect(a?.status).toBe("completed");
    expect(b?.status).toBe("completed");
    expect(b?.timings).toMatchObject({ queueMs: 700, initMs: 100 });
    expect(c?.status).toBe("failed");
    expect(c?.failure).toEqual({
      kind: "timeout",
      stage: "run",
      message: "run stage exceeded its time budget of 60 ms",
    });
    expect(c?.trainable).toBe(false);
    expect(c?.reward).toBeNull();
    expect(c?.timings.runMs).toBe(60);
  });

  it("classifies injected failures; only agent failures stay trainable", async () => {
    harness = await startTestEngine();
    const agent = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1, fail: { run: { rate: 1, kind: "agent" } } },
    });
    const sandbox = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1, fail: { init: { rate: 1, kind: "sandbox" } } },
    });
    const evalFail = await harness.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1, fail: { eval: { rate: 1, kind: "eval" } } },
    });
    const { jobs } = await harness.engine.waitForJobs([agent.job.id, sandbox.job.id, evalFail.job.id], {
      timeoutMs: 5_000,
    });
    expect(jobs.map((j) => [j.status, j.failure?.kind, j.failure?.stage, j.trainable, j.reward])).toEqual([
      ["failed", "agent", "run", true, 0],
      ["failed", "sandbox", "init", false, null],
      ["failed", "eval", "eval", false, null],
    ]);
    const stats = harness.engine.stats();
    expect(stats.failedByKind.agent).toBe(1);
    expect(stats.failedByKind.sandbox).toBe(1);
    expect(stats.failedByKind.eval).toBe(1);
  });

  it("stores an agent failure trainable with the handler's failure reward and the reason; infrastructure with none", async () => {
    harness = await startTestEngine({ sleep: { failureReward: -1 } });
    const fail = (stage: "init" | "run" | "eval", kind: "agent" | "sandbox" | "inference" | "eval") =>
      harness?.engine.submitJob({
        kind: "sleep",
        payload: { initMs: 1, runMs: 1, evalMs: 1, fail: { [stage]: { rate: 1, kind } } },
      });
    const submitted = await Promise.all([
      fail("run", "agent"),
      fail("run", "sandbox"),
      fail("run", "inference"),
      fail("eval", "eval"),
    ]);
    const ids = submitted.map((s) => s?.job.id as string);
    await harness.engine.waitForJobs(ids, { timeoutMs: 5_000 });
    await harness.engine.flush();
    const stored = await Promise.all(ids.map((id) => harness?.store.getJob(id)));
    expect(stored.map((j) => [j?.failure?.kind, j?.trainable, j?.reward, j?.failure?.message])).toEqual([
      ["agent", true, -1, "injected agent failure in run"],
      // A sandbox failure restarts the job from INIT until its attempt budget is used up.
      [
        "sandbox",
        false,
        null,
        "injected sandbox failure in run; not restarted again after 3 attempt(s) (maxAttempts 3)",
      ],
      ["inference", false, null, "injected inference failure in run"],
      ["eval", false, null, "injected eval failure in eval"],
    ]);
  });

  it("rejects unknown kinds and bad payloads at submit time with request failure codes", async () => {
    harness = await startTestEngine();
    await expect(harness.engine.submitJob({ kind: "nope", payload: {} })).rejects.toMatchObject({
      failure: {
        code: "UNKNOWN_HANDLER_KIND",
        message: 'unknown handler kind "nope"; registered kinds: sleep',
      },
    });
    const bad = harness.engine.submitJob({ kind: "sleep", payload: { runMs: "slow" } });
    await expect(bad).rejects.toBeInstanceOf(FailureError);
    await expect(bad).rejects.toMatchObject({ failure: { code: "VALIDATION_FAILED" } });
    await expect(
      harness.engine.submitJobs([
        { kind: "sleep", payload: {} },
        { kind: "missing", payload: {} },
      ]),
    ).rejects.toMatchObject({ failure: { code: "UNKNOWN_HANDLER_KIND" } });
    expect((await harness.engine.listJobs({})).items).toHaveLength(0);
    await expect(harness.engine.getJob("job_missing")).rejects.toMatchObject({
      failure: { code: "NOT_FOUND" },
    });
  });
});

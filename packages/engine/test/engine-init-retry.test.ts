import type { TStage } from "@raas/shared";
import { stageFailure } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineHandler } from "../src/define-handler";
import { HandlerRegistry } from "../src/handler-registry";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/**
 * An engine whose handler's `failStage` (INIT by default) fails the first `initFailures` times with
 * `kind` (a sandbox that would not start, a full sandbox disk), then succeeds; records every INIT
 * attempt (with how many job-end cleanups, i.e. sandbox closes, had run before it) and every
 * job-end cleanup.
 */
async function engineWithFlakyInit(options: {
  initFailures: number;
  kind: "sandbox" | "agent" | "inference" | "timeout" | "eval";
  failStage?: TStage;
  maxAttempts?: number;
}) {
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const initAttempts: Array<{ jobId: string; attempts: number; closedBefore: number }> = [];
  let jobEndCleanups = 0;
  let failuresLeft = options.initFailures;
  const failStage = options.failStage ?? "init";
  const maybeFail = () => {
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      throw stageFailure(options.kind, "sandbox failed: ENOSPC: no space left on device");
    }
  };
  const handlers = new HandlerRegistry().register(
    defineHandler({
      kind: "flaky",
      payloadSchema: z.object({}),
      async init(ctx) {
        initAttempts.push({ jobId: ctx.job.id, attempts: ctx.job.attempts, closedBefore: jobEndCleanups });
        // What a handler that opened something before its sandbox failed leaves behind.
        ctx.deferToJobEnd(() => {
          jobEndCleanups += 1;
        });
        if (failStage === "init") maybeFail();
        return {};
      },
      async run() {
        if (failStage === "run") maybeFail();
        return {};
      },
      async eval() {
        if (failStage === "eval") maybeFail();
        return { reward: 1 };
      },
    }),
  );
  const pool = { concurrency: 2, timeoutMs: 10_000 };
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    workerId: "w1",
    pools: { init: pool, run: pool, eval: pool },
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
  });
  await engine.start();
  closing.push(async () => {
    await engine.stop({ graceMs: 0 });
    await queue.close();
  });
  return { engine, initAttempts, cleanups: () => jobEndCleanups };
}

// A sandbox that cannot start is the host's fault, not the task's: the job runs INIT again (on any
// worker) within its attempt budget instead of failing on the first try (issue 31, part 4).
describe("an infrastructure failure at INIT", () => {
  it("is retried and the job completes", async () => {
    const { engine, initAttempts, cleanups } = await engineWithFlakyInit({
      initFailures: 2,
      kind: "sandbox",
    });
    const { job } = await engine.submitJob({ kind: "flaky", payload: {} });
    const { jobs, done } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
    expect(done).toBe(true);
    expect(jobs[0]?.status).toBe("completed");
    expect(jobs[0]?.reward).toBe(1);
    expect(jobs[0]?.attempts).toBe(3);
    expect(initAttempts.map((attempt) => attempt.attempts)).toEqual([1, 2, 3]);
    // Each failed attempt's job-end cleanups ran before the next one (and the last at the end).
    expect(cleanups()).toBe(3);
  });

  it("fails as `sandbox` once the attempt budget is used up, saying so", async () => {
    const { engine, initAttempts } = await engineWithFlakyInit({
      initFailures: 10,
      kind: "sandbox",
      maxAttempts: 2,
    });
    const { job } = await engine.submitJob({ kind: "flaky", payload: {} });
    const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
    expect(jobs[0]?.status).toBe("failed");
    expect(jobs[0]?.failure?.kind).toBe("sandbox");
    expect(jobs[0]?.failure?.stage).toBe("init");
    expect(jobs[0]?.failure?.message).toMatch(
      /ENOSPC.*not restarted again after 2 attempt\(s\) \(maxAttempts 2\)/,
    );
    expect(jobs[0]?.reward).toBeNull();
    expect(initAttempts).toHaveLength(2);
  });

  it("is not retried when the failure is not infrastructure of the sandbox (agent)", async () => {
    const { engine, initAttempts } = await engineWithFlakyInit({ initFailures: 1, kind: "agent" });
    const { job } = await engine.submitJob({ kind: "flaky", payload: {} });
    const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
    expect(jobs[0]?.status).toBe("failed");
    expect(jobs[0]?.failure?.kind).toBe("agent");
    expect(initAttempts).toHaveLength(1);
  });
});

// A sandbox that fails under the job later (its disk full for a while, the host failing) is no
// more the policy's fault than one that would not start, and the attempt's trajectory is not
// trainable anyway: the job starts again from INIT within its attempt budget, as a lost worker's
// jobs do, rather than failing as infrastructure on the first try (issue 31, chaos bench).
describe("an infrastructure failure of the sandbox in RUN or EVAL", () => {
  for (const stage of ["run", "eval"] as const) {
    it(`restarts the job from INIT in ${stage}, closing its sandbox, and the job completes`, async () => {
      const { engine, initAttempts, cleanups } = await engineWithFlakyInit({
        initFailures: 2,
        kind: "sandbox",
        failStage: stage,
      });
      const { job } = await engine.submitJob({ kind: "flaky", payload: {} });
      const { jobs, done } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
      expect(done).toBe(true);
      expect(jobs[0]?.status).toBe("completed");
      expect(jobs[0]?.reward).toBe(1);
      expect(jobs[0]?.attempts).toBe(3);
      // Each failed attempt's sandbox was closed before the next attempt's INIT started.
      expect(initAttempts.map(({ attempts, closedBefore }) => [attempts, closedBefore])).toEqual([
        [1, 0],
        [2, 1],
        [3, 2],
      ]);
      expect(cleanups()).toBe(3);
    });
  }

  it("fails as `sandbox` in its stage once the attempt budget is used up, saying so", async () => {
    const { engine, initAttempts, cleanups } = await engineWithFlakyInit({
      initFailures: 10,
      kind: "sandbox",
      failStage: "run",
      maxAttempts: 2,
    });
    const { job } = await engine.submitJob({ kind: "flaky", payload: {} });
    const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
    expect(jobs[0]?.status).toBe("failed");
    expect(jobs[0]?.failure?.kind).toBe("sandbox");
    expect(jobs[0]?.failure?.stage).toBe("run");
    expect(jobs[0]?.failure?.message).toMatch(
      /ENOSPC.*not restarted again after 2 attempt\(s\) \(maxAttempts 2\)/,
    );
    expect(jobs[0]?.reward).toBeNull();
    expect(initAttempts).toHaveLength(2);
    expect(cleanups()).toBe(2);
  });

  for (const [stage, kind] of [
    ["run", "agent"],
    ["run", "inference"],
    ["run", "timeout"],
    ["eval", "eval"],
  ] as const) {
    it(`does not restart a ${kind} failure in ${stage}`, async () => {
      const { engine, initAttempts } = await engineWithFlakyInit({ initFailures: 1, kind, failStage: stage });
      const { job } = await engine.submitJob({ kind: "flaky", payload: {} });
      const { jobs } = await engine.waitForJobs([job.id], { timeoutMs: 10_000 });
      expect(jobs[0]?.status).toBe("failed");
      expect(jobs[0]?.failure?.kind).toBe(kind);
      expect(jobs[0]?.failure?.stage).toBe(stage);
      expect(jobs[0]?.attempts).toBe(1);
      expect(initAttempts).toHaveLength(1);
    });
  }
});

import { describe, expect, it } from "vitest";
import { ManualClock } from "../src/testing/manual-clock";
import { startTestEngine } from "./engine-harness";

const base = { policyId: "default", ownerId: null };
const paused = { ...base, weightVersion: 3, isPaused: true, pauseMode: "wait" as const, pausedAtMs: 1 };
const running = { ...base, weightVersion: 4, isPaused: false, pauseMode: null, pausedAtMs: null };

describe("weight-sync pause holds RUN budgets", () => {
  it("a RUN longer than its budget completes while generation is paused, and times out otherwise", async () => {
    const h = await startTestEngine({ clock: new ManualClock(), timeoutsMs: { run: 150 } });
    try {
      const payload = { initMs: 0, runMs: 600, evalMs: 0 };
      h.engine.applyPolicy(paused);
      const { job: held } = await h.engine.submitJob({ kind: "sleep", payload });
      await h.reached({ jobId: held.id, stage: "run", phase: "start" });
      await h.advance(600);
      const first = await h.engine.waitForJobs([held.id], { timeoutMs: 20_000 });
      expect(first.jobs[0]).toMatchObject({ status: "completed" });

      h.engine.applyPolicy(running);
      const { job: free } = await h.engine.submitJob({ kind: "sleep", payload });
      await h.reached({ jobId: free.id, stage: "run", phase: "start" });
      // Past the 150 ms budget, short of the 600 ms RUN: only the budget can have ended it.
      await h.advance(150);
      const second = await h.engine.waitForJobs([free.id], { timeoutMs: 20_000 });
      expect(second.jobs[0]).toMatchObject({ status: "failed", failure: { kind: "timeout", stage: "run" } });
    } finally {
      await h.close();
    }
  });

  it("a pause holds only its own policy's jobs: another policy's RUN budget keeps running", async () => {
    const h = await startTestEngine({ clock: new ManualClock(), timeoutsMs: { run: 150 } });
    try {
      const payload = { initMs: 0, runMs: 600, evalMs: 0 };
      h.engine.applyPolicy({ ...paused, policyId: "policy-a" });
      const { job: held } = await h.engine.submitJob({ kind: "sleep", payload, policyId: "policy-a" });
      const { job: other } = await h.engine.submitJob({ kind: "sleep", payload, policyId: "policy-b" });
      const { job: plain } = await h.engine.submitJob({ kind: "sleep", payload });
      for (const job of [held, other, plain])
        await h.reached({ jobId: job.id, stage: "run", phase: "start" });
      await h.advance(600);
      const ended = await h.engine.waitForJobs([held.id, other.id, plain.id], { timeoutMs: 20_000 });
      const byId = new Map(ended.jobs.map((job) => [job.id, job]));
      expect(byId.get(held.id)).toMatchObject({ status: "completed", policyId: "policy-a" });
      for (const id of [other.id, plain.id])
        expect(byId.get(id)).toMatchObject({ status: "failed", failure: { kind: "timeout", stage: "run" } });
      expect(byId.get(plain.id)?.policyId).toBe("default");
    } finally {
      await h.close();
    }
  });
});

import { describe, expect, it } from "vitest";
import { startTestEngine } from "./engine-harness";

const paused = { weightVersion: 3, isPaused: true, pauseMode: "wait" as const, pausedAtMs: 1 };
const running = { weightVersion: 4, isPaused: false, pauseMode: null, pausedAtMs: null };

describe("weight-sync pause holds RUN budgets", () => {
  it("a RUN longer than its budget completes while generation is paused, and times out otherwise", async () => {
    const h = await startTestEngine({ timeoutsMs: { run: 150 } });
    try {
      const payload = { initMs: 0, runMs: 600, evalMs: 0 };
      h.engine.applyPolicy(paused);
      const { job: held } = await h.engine.submitJob({ kind: "sleep", payload });
      const first = await h.engine.waitForJobs([held.id], { timeoutMs: 20_000 });
      expect(first.jobs[0]).toMatchObject({ status: "completed" });

      h.engine.applyPolicy(running);
      const { job: free } = await h.engine.submitJob({ kind: "sleep", payload });
      const second = await h.engine.waitForJobs([free.id], { timeoutMs: 20_000 });
      expect(second.jobs[0]).toMatchObject({ status: "failed", failure: { kind: "timeout", stage: "run" } });
    } finally {
      await h.close();
    }
  });
});

// Routing stickiness is released when a job ends, whatever the end: the router's sticky map is
// empty after many completed, failed and cancelled jobs.
import { afterEach, describe, expect, it } from "vitest";
import { StickyRouter } from "../src/routing/sticky-router";
import { ManualClock } from "../src/testing/manual-clock";
import { startTestEngine } from "./engine-harness";

let harness: Awaited<ReturnType<typeof startTestEngine>> | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("sticky routing per job", () => {
  it("is released when the job completes, fails or is cancelled", async () => {
    const router = new StickyRouter();
    for (const id of ["gpu-0", "gpu-1", "gpu-2"]) {
      router.registerBackend({ id, modelName: "m", weightVersion: null, maxConcurrency: 8 }, 0);
    }
    const routed = new Set<string>();
    harness = await startTestEngine({
      clock: new ManualClock(),
      concurrency: { init: 8, run: 16, eval: 8 },
      inference: router,
      sleep: {
        // RUN takes one turn through the real router, as the agent loop's generations do.
        onStage: ({ jobId, stage, phase }) => {
          if (stage !== "run" || phase !== "start") return;
          const decision = router.acquire(jobId, Date.now());
          if (!decision) throw new Error("no backend");
          router.release(decision.backendId, { type: "aborted" }, Date.now());
          routed.add(jobId);
        },
      },
    });
    const engine = harness.engine;
    const submit = (payload: Record<string, unknown>) =>
      engine.submitJob({ kind: "sleep", payload }).then((r) => r.job.id);
    const completed = await Promise.all(Array.from({ length: 30 }, () => submit({ runMs: 1, evalMs: 1 })));
    const failedInRun = await Promise.all(
      Array.from({ length: 10 }, () => submit({ runMs: 1, fail: { run: { rate: 1, kind: "sandbox" } } })),
    );
    const failedInEval = await Promise.all(
      Array.from({ length: 10 }, () => submit({ runMs: 1, fail: { eval: { rate: 1, kind: "eval" } } })),
    );
    const cancelled = await Promise.all(Array.from({ length: 10 }, () => submit({ runMs: 60_000 })));
    const h = harness;
    await h.advanceUntil(
      Promise.all(cancelled.map((jobId) => h.reached({ jobId, stage: "run", phase: "start" }))),
    );
    expect(cancelled.filter((id) => routed.has(id))).toHaveLength(10);
    expect(cancelled.filter((id) => router.stickyBackendOf(id) !== null)).toHaveLength(10);
    await Promise.all(cancelled.map((jobId) => engine.cancel({ jobId })));
    const all = [...completed, ...failedInRun, ...failedInEval, ...cancelled];
    const { jobs, done } = await h.advanceUntil(engine.waitForJobs(all, { timeoutMs: 20_000 }));
    expect(done).toBe(true);
    const statuses = jobs.map((job) => job.status);
    expect(statuses.filter((s) => s === "completed")).toHaveLength(30);
    expect(statuses.filter((s) => s === "failed")).toHaveLength(20);
    expect(statuses.filter((s) => s === "cancelled")).toHaveLength(10);
    expect(routed.size).toBe(60);
    expect(all.filter((id) => router.stickyBackendOf(id) !== null)).toEqual([]);
    expect(router.listBackends(Date.now()).map((b) => b.stickyJobs)).toEqual([0, 0, 0]);
  });
});

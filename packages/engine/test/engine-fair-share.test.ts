import type { TJob, TStage } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import type { FairShareOptions } from "../src/scheduling/fair-share-options";
import { ManualClock } from "../src/testing/manual-clock";

/** One stage of one job, from its start to its cleanup (the sleep handler's hooks). */
interface StageSpan {
  jobId: string;
  stage: TStage;
  startMs: number;
  endMs: number | null;
  /** Order of the start and the cleanup among all stage events (ties in clock time are common). */
  startSeq: number;
  endSeq: number | null;
}

/**
 * An engine whose stages, queue, sweeps and handler sleeps all run on one ManualClock: spans
 * are in clock time, so slot-time shares and orders are exact whatever the machine's load.
 */
async function startFairEngine(pools: Record<TStage, number>, fairShare: FairShareOptions) {
  const clock = new ManualClock();
  const spans: StageSpan[] = [];
  const open = new Map<string, StageSpan>();
  let seq = 0;
  const handlers = new HandlerRegistry().register(
    createSleepHandler({
      clock,
      onStage: ({ jobId, stage, phase }) => {
        const key = `${jobId} ${stage}`;
        if (phase === "start") {
          const span: StageSpan = {
            jobId,
            stage,
            startMs: clock.now(),
            endMs: null,
            startSeq: seq++,
            endSeq: null,
          };
          spans.push(span);
          open.set(key, span);
        } else {
          const span = open.get(key);
          if (span) Object.assign(span, { endMs: clock.now(), endSeq: seq++ });
          open.delete(key);
        }
      },
    }),
  );
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue({ clock });
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    clock,
    pools: { init: pool(pools.init), run: pool(pools.run), eval: pool(pools.eval) },
    fairShare: { sweepEveryMs: 50, ...fairShare },
  });
  await engine.start();
  /** Moves the clock on a millisecond at a time (committing each step's writes) until `isDone`. */
  const advanceUntil = async (isDone: () => boolean, maxMs: number): Promise<void> => {
    for (let movedMs = 0; !isDone(); movedMs++) {
      if (movedMs >= maxMs) throw new Error(`not done after ${maxMs} ms of clock time`);
      await clock.advance(1);
      await engine.flush();
    }
  };
  /** Whether the jobs have all ended, kept current as the engine reports them. */
  const allEnded = (ids: readonly string[]) => {
    const state = { isDone: false };
    void engine.waitForJobs(ids, { timeoutMs: 3_600_000 }).then(({ done }) => {
      state.isDone = done;
    });
    return () => state.isDone;
  };
  return {
    engine,
    spans,
    clock,
    advanceUntil,
    allEnded,
    async close() {
      let isStopped = false;
      const stopping = engine.stop({ graceMs: 100 }).finally(() => {
        isStopped = true;
      });
      while (!isStopped) await clock.advance(100);
      await stopping;
      await queue.close();
      await store.close();
    },
  };
}

type Harness = Awaited<ReturnType<typeof startFairEngine>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const runJobs = (
  runId: string,
  count: number,
  payload: Record<string, unknown>,
  options: { weight?: number; priority?: number; maxSandboxes?: number } = {},
) =>
  Array.from({ length: count }, () => ({
    kind: "sleep",
    payload,
    batchId: runId,
    priority: options.priority ?? 0,
    metadata: {
      runId,
      share: { weight: options.weight ?? 1, maxSandboxes: options.maxSandboxes ?? null },
    },
  }));

/** Jobs whose EVAL has ended. */
const evalsEnded = (spans: readonly StageSpan[]) =>
  spans.filter((span) => span.stage === "eval" && span.endMs !== null).length;

describe("fair sharing between runs", () => {
  it("gives two saturating runs of weights 3:1 slot-time within ±10 % of 3:1 (measured from stage spans)", async () => {
    harness = await startFairEngine({ init: 2, run: 3, eval: 2 }, { queuedAhead: 3 });
    const { engine, spans, advanceUntil } = harness;
    // Run b's jobs are twice as long: fairness is in slot-time, not in job counts.
    const a = await engine.submitJobs(
      runJobs("run_a", 300, { initMs: 5, runMs: 30, evalMs: 5 }, { weight: 3 }),
    );
    const b = await engine.submitJobs(
      runJobs("run_b", 300, { initMs: 5, runMs: 60, evalMs: 5 }, { weight: 1 }),
    );
    const runOf = new Map<string, string>();
    for (const { job } of a) runOf.set(job.id, "run_a");
    for (const { job } of b) runOf.set(job.id, "run_b");

    // Warm up (each run's cost per job is learned from its first jobs), then measure a window.
    await advanceUntil(() => evalsEnded(spans) >= 40, 60_000);
    const fromMs = harness.clock.now();
    await advanceUntil(() => evalsEnded(spans) >= 200, 120_000);
    const toMs = harness.clock.now();
    // Both runs still had work waiting all along: the window is one of saturation.
    const waiting = engine.fairShare();
    expect(waiting.find((flow) => flow.flowId === "run_a")?.waiting).toBeGreaterThan(0);
    expect(waiting.find((flow) => flow.flowId === "run_b")?.waiting).toBeGreaterThan(0);

    const slotMs = { run_a: 0, run_b: 0 } as Record<string, number>;
    for (const span of spans) {
      const end = Math.min(span.endMs ?? toMs, toMs);
      const start = Math.max(span.startMs, fromMs);
      const run = runOf.get(span.jobId) as string;
      if (end > start) slotMs[run] = (slotMs[run] as number) + (end - start);
    }
    const ratio = (slotMs.run_a as number) / (slotMs.run_b as number);
    expect(ratio).toBeGreaterThan(2.7);
    expect(ratio).toBeLessThan(3.3);
    await engine.cancel({ batchId: "run_a" });
    await engine.cancel({ batchId: "run_b" });
  }, 240_000);

  it("starts a high-priority run's job within one stage-slot turnover", async () => {
    harness = await startFairEngine({ init: 2, run: 2, eval: 2 }, { queuedAhead: 2 });
    const { engine, spans, advanceUntil, allEnded } = harness;
    const low = await engine.submitJobs(runJobs("run_low", 30, { initMs: 5, runMs: 200, evalMs: 5 }));
    await advanceUntil(() => engine.stats().stages.run.active === 2, 30_000);
    const submittedSeq = spans.length === 0 ? -1 : Math.max(...spans.map((s) => s.endSeq ?? s.startSeq));
    const [high] = await engine.submitJobs(
      runJobs("run_high", 1, { initMs: 5, runMs: 5, evalMs: 5 }, { priority: 10 }),
    );
    const highId = (high as { job: TJob }).job.id;
    await advanceUntil(allEnded([highId]), 30_000);
    const lowIds = new Set(low.map((result) => result.job.id));
    const highInit = spans.find((s) => s.jobId === highId && s.stage === "init") as StageSpan;
    const highRun = spans.find((s) => s.jobId === highId && s.stage === "run") as StageSpan;
    // No low-priority INIT started after the high job arrived and before its own INIT…
    const lowInitsBefore = spans.filter(
      (s) =>
        lowIds.has(s.jobId) &&
        s.stage === "init" &&
        s.startSeq > submittedSeq &&
        s.startSeq < highInit.startSeq,
    );
    expect(lowInitsBefore).toEqual([]);
    // …and the first RUN slot that turned over after its INIT went to it.
    const lowRunsBetween = spans.filter(
      (s) =>
        lowIds.has(s.jobId) &&
        s.stage === "run" &&
        s.startSeq > (highInit.endSeq as number) &&
        s.startSeq < highRun.startSeq,
    );
    expect(lowRunsBetween).toEqual([]);
    // It waited for one low-priority RUN to end, never for the queue of 28 others.
    const lowRunEndsBefore = spans.filter(
      (s) =>
        lowIds.has(s.jobId) &&
        s.stage === "run" &&
        s.endSeq !== null &&
        s.endSeq > (highInit.endSeq as number) &&
        s.endSeq < highRun.startSeq,
    );
    expect(lowRunEndsBefore.length).toBeLessThanOrEqual(1);
    await engine.cancel({ batchId: "run_low" });
  }, 60_000);

  it("caps a run's jobs holding sandboxes at maxSandboxes", async () => {
    harness = await startFairEngine({ init: 4, run: 4, eval: 4 }, { queuedAhead: 8 });
    const { engine, spans, advanceUntil, allEnded } = harness;
    const jobs = await engine.submitJobs(
      runJobs("run_capped", 12, { initMs: 5, runMs: 40, evalMs: 5 }, { maxSandboxes: 2 }),
    );
    await advanceUntil(allEnded(jobs.map((r) => r.job.id)), 60_000);
    // A job holds its sandbox from INIT's start to EVAL's end: never more than two at once.
    const holds = new Map<string, { from: number; to: number }>();
    for (const span of spans) {
      const hold = holds.get(span.jobId) ?? { from: span.startMs, to: span.endMs ?? span.startMs };
      hold.from = Math.min(hold.from, span.startMs);
      hold.to = Math.max(hold.to, span.endMs ?? span.startMs);
      holds.set(span.jobId, hold);
    }
    const points = [...holds.values()].flatMap((h) => [
      { at: h.from, delta: 1 },
      { at: h.to, delta: -1 },
    ]);
    points.sort((x, y) => x.at - y.at || x.delta - y.delta);
    let held = 0;
    let most = 0;
    for (const point of points) {
      held += point.delta;
      most = Math.max(most, held);
    }
    expect(most).toBe(2);
    const done = await Promise.all(jobs.map((r) => engine.getJob(r.job.id)));
    expect(done.every((job) => job.status === "completed")).toBe(true);
  }, 90_000);

  it("preempts lower-priority RUN work for a waiting high-priority job, re-queues it and keeps finished jobs", async () => {
    harness = await startFairEngine({ init: 2, run: 2, eval: 2 }, { queuedAhead: 2, preemptAfterMs: 100 });
    const { engine, advanceUntil, allEnded } = harness;
    const quick = await engine.submitJobs(runJobs("run_low", 2, { initMs: 5, runMs: 5, evalMs: 5 }));
    await advanceUntil(allEnded(quick.map((r) => r.job.id)), 30_000);
    const finishedBefore = await Promise.all(quick.map((r) => engine.getJob(r.job.id)));
    const long = await engine.submitJobs(runJobs("run_low", 2, { initMs: 5, runMs: 1_500, evalMs: 5 }));
    await advanceUntil(() => engine.stats().stages.run.active === 2, 30_000);
    const [high] = await engine.submitJobs(
      runJobs("run_high", 1, { initMs: 5, runMs: 20, evalMs: 5 }, { priority: 10 }),
    );
    const highId = (high as { job: TJob }).job.id;
    await advanceUntil(allEnded([highId]), 30_000);
    const highJob = await engine.getJob(highId);
    expect(highJob.status).toBe("completed");
    // The high job finished long before a 1.5 s low RUN could have ended: a slot was given up.
    const longJobs = await Promise.all(long.map((r) => engine.getJob(r.job.id)));
    expect(longJobs.some((job) => job.status !== "completed")).toBe(true);
    // Every low job still ends completed: the preempted one was re-queued, not failed or counted.
    await advanceUntil(allEnded(long.map((r) => r.job.id)), 60_000);
    const ended = await Promise.all(long.map((r) => engine.getJob(r.job.id)));
    expect(ended.map((job) => job.status)).toEqual(["completed", "completed"]);
    expect(ended.map((job) => job.attempts)).toEqual([1, 1]);
    // Jobs that had finished before the preemption are untouched.
    const finishedAfter = await Promise.all(quick.map((r) => engine.getJob(r.job.id)));
    expect(finishedAfter).toEqual(finishedBefore);
  }, 120_000);
});

import { describe, expect, it } from "vitest";
import { StatsTracker } from "./stats-tracker";

const CONCURRENCY = { init: 2, run: 2, eval: 2 };

function failIn(
  tracker: StatsTracker,
  kind: "timeout" | "inference" | "agent",
  stage: "init" | "run" | "eval",
  nowMs: number,
) {
  tracker.moved({ status: "active", stage }, { status: "failed", stage, failureKind: kind }, nowMs);
}

describe("StatsTracker failure series", () => {
  it("counts failures per interval by kind and stage, leaving completions and cancellations out", () => {
    const tracker = new StatsTracker({ windowMs: 10_000, sampleEveryMs: 1_000, nowMs: 0 });
    tracker.submitted(6);
    failIn(tracker, "inference", "run", 100);
    failIn(tracker, "inference", "run", 200);
    failIn(tracker, "timeout", "eval", 300);
    tracker.moved(
      { status: "active", stage: "eval" },
      { status: "completed", stage: "eval", failureKind: null },
      400,
    );
    tracker.moved(
      { status: "queued", stage: "init" },
      { status: "cancelled", stage: "init", failureKind: null },
      500,
    );
    failIn(tracker, "agent", "run", 1_500);

    const stats = tracker.snapshot(2_000, CONCURRENCY);
    expect(stats.throughputSeries.map((sample) => sample.atMs)).toEqual([1_000, 2_000]);
    const [first, second] = stats.throughputSeries;
    expect(first?.failures).toEqual([
      { kind: "inference", stage: "run", count: 2 },
      { kind: "timeout", stage: "eval", count: 1 },
    ]);
    expect(first?.failedPerSec).toBe(4);
    expect(first?.completedPerSec).toBe(1);
    expect(second?.failures).toEqual([{ kind: "agent", stage: "run", count: 1 }]);
    expect(stats.failedByKind).toMatchObject({ inference: 2, timeout: 1, agent: 1 });
  });

  it("closes quiet intervals with no failures, and a later snapshot leaves earlier samples unchanged", () => {
    const tracker = new StatsTracker({ windowMs: 10_000, sampleEveryMs: 1_000, nowMs: 0 });
    failIn(tracker, "timeout", "init", 50);
    const early = tracker.snapshot(3_000, CONCURRENCY);
    expect(early.throughputSeries.map((sample) => sample.failures.length)).toEqual([1, 0, 0]);
    failIn(tracker, "timeout", "init", 3_100);
    const later = tracker.snapshot(4_000, CONCURRENCY);
    expect(early.throughputSeries[0]?.failures).toEqual([{ kind: "timeout", stage: "init", count: 1 }]);
    expect(later.throughputSeries.at(-1)?.failures).toEqual([{ kind: "timeout", stage: "init", count: 1 }]);
  });

  it("counts failure labels beside kinds, from transitions and from the store's totals", () => {
    const tracker = new StatsTracker({ windowMs: 10_000, sampleEveryMs: 1_000, nowMs: 0 });
    tracker.seed({
      submitted: 3,
      completed: 0,
      cancelled: 0,
      failedByKind: { agent: 3 },
      failedByLabel: { tampered: 2 },
    });
    expect(tracker.snapshot(0, CONCURRENCY).failedByLabel).toEqual({ tampered: 2, misconfigured: 0 });
    tracker.moved(
      { status: "active", stage: "eval" },
      { status: "failed", stage: "eval", failureKind: "agent", failureLabel: "tampered" },
      100,
    );
    failIn(tracker, "agent", "eval", 200);
    tracker.moved(
      { status: "active", stage: "init" },
      { status: "failed", stage: "init", failureKind: "sandbox", failureLabel: "misconfigured" },
      250,
    );
    const stats = tracker.snapshot(300, CONCURRENCY);
    expect(stats.failedByLabel).toEqual({ tampered: 3, misconfigured: 1 });
    expect(stats.failedByKind.agent).toBe(5);
    expect(stats.failedByKind.sandbox).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { describeWallClockAssert, findWallClockAsserts } from "./wall-clock-asserts.mjs";

describe("findWallClockAsserts", () => {
  it("finds comparisons on clock readings, on durations computed from them and on measured durations", () => {
    const text = [
      "const startedAt = performance.now();",
      "await work();",
      "expect(performance.now() - startedAt).toBeLessThan(2_000);",
      "const handoffMs = Date.now() - startedAt;",
      "expect(handoffMs).toBeLessThan(1_000);",
      "expect(result.durationMs).toBeLessThan(3_000);",
      "expect(job.timings.queueMs)",
      "  .toBeGreaterThanOrEqual(600);",
    ].join("\n");
    expect(findWallClockAsserts(text)).toEqual([
      { line: 3, matcher: "toBeLessThan", subject: "performance.now() - startedAt" },
      { line: 5, matcher: "toBeLessThan", subject: "handoffMs" },
      { line: 6, matcher: "toBeLessThan", subject: "result.durationMs" },
      { line: 7, matcher: "toBeGreaterThanOrEqual", subject: "job.timings.queueMs" },
    ]);
  });

  it("leaves equality on a manual clock, counts and opted-out real-time primitives alone", () => {
    const text = [
      "expect(finished.timings).toEqual({ queueMs: 0, initMs: 20 });",
      "expect(events.length).toBeGreaterThan(3);",
      "expect(clock.now()).toBe(1_000_020);",
      "// wall-clock-ok: pacing on the real clock is what sleepUntil is for",
      "expect(performance.now()).toBeGreaterThanOrEqual(dueAtMs);",
    ].join("\n");
    expect(findWallClockAsserts(text)).toEqual([]);
  });

  it("says where and what to do instead", () => {
    const message = describeWallClockAssert("a.test.ts", { line: 3, matcher: "toBeLessThan", subject: "x" });
    expect(message).toMatch(/^a\.test\.ts:3: `expect\(x\)\.toBeLessThan` asserts on wall-clock time/);
    expect(message).toContain("ManualClock from @raas/engine/testing");
  });
});

import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing";
import type { BackendReportedCounters } from "./backend-stats";
import { BackendUtilisation } from "./backend-utilisation";
import { OccupancyWindow } from "./occupancy-window";

function reportedRunning(...running: number[]): BackendReportedCounters {
  return {
    prefixCacheQueries: 0,
    prefixCacheHits: 0,
    engines: running.map((r, i) => ({
      engine: String(i),
      prefixCacheQueries: 0,
      prefixCacheHits: 0,
      kvCacheUsage: null,
      running: r,
      waiting: 0,
    })),
  };
}

describe("OccupancyWindow", () => {
  it("weighs each sample by the time it held", async () => {
    const clock = new ManualClock();
    const window = new OccupancyWindow(10_000);
    window.record(0, clock.now());
    await clock.advance(2_000);
    window.record(4, clock.now());
    await clock.advance(6_000);
    window.record(0, clock.now());
    await clock.advance(2_000);
    const summary = window.summarise(clock.now(), 8);
    expect(summary).toEqual({ busyFraction: 0.6, meanRunning: 2.4, slotUtilisation: 0.3, coveredMs: 10_000 });
  });

  it("slides: time before the window no longer counts", async () => {
    const clock = new ManualClock();
    const window = new OccupancyWindow(1_000);
    window.record(2, clock.now());
    await clock.advance(5_000);
    window.record(0, clock.now());
    await clock.advance(500);
    expect(window.summarise(clock.now(), 2)).toMatchObject({ busyFraction: 0.5, slotUtilisation: 0.5 });
    await clock.advance(1_000);
    expect(window.summarise(clock.now(), 2)).toMatchObject({ busyFraction: 0, meanRunning: 0 });
  });

  it("covers only the time since its first sample, and nothing before it", async () => {
    const clock = new ManualClock();
    const window = new OccupancyWindow(60_000);
    expect(window.summarise(clock.now(), 4)).toBeNull();
    window.record(1, clock.now());
    expect(window.summarise(clock.now(), 4)).toBeNull();
    await clock.advance(3_000);
    expect(window.summarise(clock.now(), 4)).toEqual({
      busyFraction: 1,
      meanRunning: 1,
      slotUtilisation: 0.25,
      coveredMs: 3_000,
    });
  });
});

describe("BackendUtilisation", () => {
  it("falls back to the in-flight count for a backend that reports no running gauge", async () => {
    const clock = new ManualClock();
    const utilisation = new BackendUtilisation(10_000);
    utilisation.recordInFlight(2, clock.now());
    utilisation.recordReported({ prefixCacheQueries: 1, prefixCacheHits: 0 }, clock.now());
    await clock.advance(5_000);
    utilisation.recordInFlight(0, clock.now());
    await clock.advance(5_000);
    expect(utilisation.snapshot(clock.now(), 4)).toMatchObject({
      source: "in-flight",
      busyFraction: 0.5,
      slotUtilisation: 0.25,
      windowMs: 10_000,
    });
  });

  it("prefers the backend's own running gauge, summed over its engines", async () => {
    const clock = new ManualClock();
    const utilisation = new BackendUtilisation(10_000);
    utilisation.recordInFlight(1, clock.now());
    utilisation.recordReported(reportedRunning(3, 5), clock.now());
    await clock.advance(10_000);
    expect(utilisation.snapshot(clock.now(), 16)).toMatchObject({
      source: "reported",
      busyFraction: 1,
      meanRunning: 8,
      slotUtilisation: 0.5,
    });
  });

  it("has no figures before the first sample", () => {
    expect(new BackendUtilisation(1_000).snapshot(0, 1)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { quantile, type SoakSample, stepTimeDrift, summarizeSoak } from "./soak-summary";

function sample(overrides: Partial<SoakSample>): SoakSample {
  return {
    elapsedS: 0,
    jobs: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
    steps: 0,
    liveSandboxes: 0,
    bwrapProcesses: 0,
    sandboxDirs: 0,
    fds: 40,
    rssBytes: null,
    errorLogLines: 0,
    storeBytes: 1_000_000,
    walBytes: 100,
    healthP99Ms: null,
    ...overrides,
  };
}

describe("soak summary", () => {
  it("takes the nearest-rank quantile", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile([], 0.99)).toBeNull();
  });

  it("compares the last steps with the first, leaving the cold first step out", () => {
    // 21 steps: the first (cold) is dropped, then 2 steps at each end.
    const steps = [9_000, 1_000, 1_000, ...Array.from({ length: 16 }, () => 1_200), 2_000, 2_000];
    expect(stepTimeDrift(steps)).toBe(2);
    expect(stepTimeDrift([1_000, 1_500])).toBe(1.5);
    expect(stepTimeDrift([1_000])).toBeNull();
  });

  it("reports growth per 1,000 jobs from the idle baseline to the idle end", () => {
    const summary = summarizeSoak({
      baseline: sample({ jobs: 0, fds: 40, storeBytes: 1_000_000, sandboxDirs: 2 }),
      samples: [sample({ jobs: 1_000, walBytes: 9_000, fds: 300 })],
      idle: sample({
        jobs: 2_000,
        fds: 50,
        storeBytes: 5_000_000,
        liveSandboxes: 3,
        sandboxDirs: 5,
        errorLogLines: 2,
      }),
      stepMs: [1_000, 1_000],
      healthMs: [1, 2, 3],
      healthFailures: 0,
      healthNotOk: 0,
    });
    expect(summary).toMatchObject({
      jobs: 2_000,
      leakedSandboxes: 3,
      leakedSandboxDirs: 3,
      fdGrowthPer1000Jobs: 5,
      errorLogLines: 2,
      storeBytesPer1000Jobs: 2_000_000,
      walBytesMax: 9_000,
      stepTimeDrift: 1,
      healthP99Ms: 3,
    });
  });
});

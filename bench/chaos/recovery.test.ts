import { describe, expect, it } from "vitest";
import { DEFAULT_RECOVERY, faultWindowOf, recoveryAfter } from "./recovery";

const options = { ...DEFAULT_RECOVERY, baselinePerSec: 2 }; // needs 5 completions per 5 s window
const every = (fromMs: number, toMs: number, stepMs: number) =>
  Array.from({ length: Math.floor((toMs - fromMs) / stepMs) }, (_, i) => fromMs + i * stepMs);

describe("recoveryAfter", () => {
  it("is 0 when the fault never slowed the cluster", () => {
    const completions = every(0, 60_000, 500);
    expect(recoveryAfter(10_000, completions, 60_000, 60_000, options)).toEqual({ ms: 0, recovered: true });
  });

  it("is the gap until completions reach half the baseline rate again", () => {
    const completions = [...every(0, 10_000, 500), ...every(30_000, 60_000, 500)];
    const recovery = recoveryAfter(10_000, completions, 60_000, 60_000, options);
    expect(recovery.recovered).toBe(true);
    // The first window holding 5 completions starts 2.75 s before the 5th one after the gap.
    expect(recovery.ms).toBe(17_250);
  });

  it("is the whole horizon, flagged, when throughput never came back", () => {
    const completions = every(0, 10_000, 500);
    expect(recoveryAfter(10_000, completions, 40_000, 90_000, options)).toEqual({
      ms: 30_000,
      recovered: false,
    });
  });

  it("counts the first completion after the fault when the workload runs out first", () => {
    const completions = [...every(0, 10_000, 500), 14_000, 15_000];
    expect(recoveryAfter(10_000, completions, 60_000, 15_000, options)).toEqual({
      ms: 4_000,
      recovered: true,
    });
  });
});

describe("faultWindowOf", () => {
  it("names the last fault begun at or before the moment, -1 before any", () => {
    expect(faultWindowOf(5, [10, 20])).toBe(-1);
    expect(faultWindowOf(10, [10, 20])).toBe(0);
    expect(faultWindowOf(25, [10, 20])).toBe(1);
  });
});

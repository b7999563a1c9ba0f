import { describe, expect, it } from "vitest";
import { makeStats } from "./run-stats.fixture";
import { parseWasteUnit, totalWaste, wasteRows } from "./run-waste";

const entry = (jobs: number, rolloutSeconds: number, generatedTokens: number) => ({
  jobs,
  rolloutSeconds,
  generatedTokens,
});

const steps = [
  {
    index: 0,
    stats: makeStats({
      waste: {
        cancelled: entry(2, 1.26, 300),
        zeroVariance: entry(4, 3, 800),
        stale: entry(0, 0, 0),
        infraFailures: entry(1, 0.5, 0),
        uncertified: entry(1, 0.25, 40),
        expiredLongShots: entry(2, 1, 100),
        tampered: entry(3, 2, 60),
      },
    }),
  },
  { index: 1, stats: makeStats() },
];

describe("wasteRows", () => {
  it("gives one row per step with every ledger entry in the chosen unit", () => {
    expect(wasteRows(steps, "seconds")).toEqual([
      {
        step: 0,
        cancelled: 1.3,
        zeroVariance: 3,
        stale: 0,
        infraFailures: 0.5,
        uncertified: 0.3,
        expiredLongShots: 1,
        tampered: 2,
      },
      {
        step: 1,
        cancelled: 0,
        zeroVariance: 0,
        stale: 0,
        infraFailures: 0,
        uncertified: 0,
        expiredLongShots: 0,
        tampered: 0,
      },
    ]);
    expect(wasteRows(steps, "tokens")[0]).toEqual({
      step: 0,
      cancelled: 300,
      zeroVariance: 800,
      stale: 0,
      infraFailures: 0,
      uncertified: 40,
      expiredLongShots: 100,
      tampered: 60,
    });
  });

  it("sums the ledger and reads the unit from the query string", () => {
    expect(totalWaste(steps, "tokens")).toBe(1_300);
    expect(totalWaste(steps, "seconds")).toBeCloseTo(8.01);
    expect(parseWasteUnit("tokens")).toBe("tokens");
    expect(parseWasteUnit("bogus")).toBe("seconds");
    expect(parseWasteUnit(null)).toBe("seconds");
  });
});

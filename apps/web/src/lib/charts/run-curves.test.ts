import { describe, expect, it } from "vitest";
import {
  failedGroupFraction,
  informativeFraction,
  infraFailureRate,
  overlayCurves,
  RUN_CURVES,
  runLabels,
} from "./run-curves";
import { makeStats } from "./run-stats.fixture";

describe("step fractions", () => {
  it("divides by decided groups or submitted jobs, null before any", () => {
    const stats = makeStats({
      groupsDecided: 8,
      informative: 6,
      failedGroups: 1,
      jobsSubmitted: 40,
      waste: { ...makeStats().waste, infraFailures: { jobs: 4, rolloutSeconds: 2, generatedTokens: 10 } },
    });
    expect(informativeFraction(stats)).toBe(0.75);
    expect(failedGroupFraction(stats)).toBe(0.125);
    expect(infraFailureRate(stats)).toBe(0.1);
    expect(informativeFraction(makeStats())).toBeNull();
    expect(failedGroupFraction(makeStats())).toBeNull();
    expect(infraFailureRate(makeStats())).toBeNull();
  });
});

describe("runLabels", () => {
  it("adds the end of the id only where two runs share a name", () => {
    const runs = [
      { run: { id: "run_aaaaaa111111", name: "dapo" }, steps: [] },
      { run: { id: "run_bbbbbb222222", name: "dapo" }, steps: [] },
      { run: { id: "run_cccccc333333", name: "grpo" }, steps: [] },
    ];
    expect(runLabels(runs)).toEqual(["dapo (111111)", "dapo (222222)", "grpo"]);
  });
});

describe("overlayCurves", () => {
  it("puts every run's steps on shared step rows, with the reward band and gaps for missing steps", () => {
    const chart = overlayCurves(
      [
        {
          run: { id: "run_1", name: "a" },
          steps: [
            { index: 0, stats: makeStats({ rewardMean: 0.5, rewardMin: 0, rewardMax: 1 }) },
            { index: 1, stats: makeStats({ rewardMean: 0.75, rewardMin: 0.5, rewardMax: 1 }) },
          ],
        },
        { run: { id: "run_2", name: "b" }, steps: [{ index: 0, stats: makeStats() }] },
      ],
      RUN_CURVES.reward,
    );
    expect(chart.series).toEqual([
      { key: "r0m0", label: "a", bandKey: "r0m0band" },
      { key: "r1m0", label: "b", bandKey: "r1m0band" },
    ]);
    expect(chart.rows).toEqual([
      { step: 0, r0m0: 0.5, r0m0band: [0, 1], r1m0: null, r1m0band: null },
      { step: 1, r0m0: 0.75, r0m0band: [0.5, 1] },
    ]);
  });

  it("names each metric in the legend when a chart draws several per run", () => {
    const chart = overlayCurves(
      [{ run: { id: "run_1", name: "a" }, steps: [{ index: 0, stats: makeStats({ groupsDecided: 2 }) }] }],
      RUN_CURVES.failures,
    );
    expect(chart.series.map((line) => line.label)).toEqual([
      "a · infra failures / jobs",
      "a · failed groups / decided",
    ]);
    expect(chart.rows).toEqual([{ step: 0, r0m0: null, r0m1: 0 }]);
  });
});

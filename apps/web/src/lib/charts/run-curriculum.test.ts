import type { TCurriculumSnapshot } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { curriculumTaskRows, passRateParts, passRateRows } from "./run-curriculum";

const snapshot = (stepIndex: number, histogram: number[]): TCurriculumSnapshot => ({
  stepId: `stp_${stepIndex}`,
  stepIndex,
  atMs: 1_000 + stepIndex,
  total: 10,
  unexplored: 10 - histogram.reduce((a, b) => a + b, 0),
  active: 3,
  retired: histogram.reduce((a, b) => a + b, 0) - 3,
  neverSolved: histogram[0] ?? 0,
  alwaysSolved: histogram.at(-1) ?? 0,
  histogram,
  meanPassRate: 0.5,
});

describe("curriculum chart rows", () => {
  it("stacks each step's tasks active, retired and not tried", () => {
    expect(curriculumTaskRows([snapshot(0, [1, 0, 2, 0, 0, 0, 0, 0, 0, 2])])).toEqual([
      { step: 0, active: 3, retired: 2, unexplored: 5 },
    ]);
  });

  it("labels the bins by pass-rate range and spreads each histogram over them", () => {
    const parts = passRateParts([0, 0.1, 0.2, 1]);
    expect(parts).toEqual([
      { key: "bin0", label: "0–10 %" },
      { key: "bin1", label: "10–20 %" },
      { key: "bin2", label: "20–100 %" },
    ]);
    expect(passRateRows([snapshot(4, [1, 2, 3])])).toEqual([{ step: 4, bin0: 1, bin1: 2, bin2: 3 }]);
  });
});

import { describe, expect, it } from "vitest";
import { failureBreakdown } from "./overview-failures";

const time = (atMs: number) => `t${atMs}`;

describe("failureBreakdown", () => {
  it("stacks each interval's failures by kind and stage, zero-filling pairs an interval lacks", () => {
    const breakdown = failureBreakdown(
      [
        { atMs: 1_000, failures: [{ kind: "timeout", stage: "eval", count: 1 }] },
        { atMs: 2_000, failures: [] },
        {
          atMs: 3_000,
          failures: [
            { kind: "inference", stage: "run", count: 2 },
            { kind: "timeout", stage: "eval", count: 3 },
          ],
        },
      ],
      time,
    );
    expect(breakdown.pairs.map((pair) => [pair.label, pair.count])).toEqual([
      ["timeout in EVAL", 4],
      ["inference in RUN", 2],
    ]);
    expect(breakdown.total).toBe(6);
    expect(breakdown.rows).toEqual([
      { time: "t1000", atMs: 1_000, timeout_eval: 1, inference_run: 0 },
      { time: "t2000", atMs: 2_000, timeout_eval: 0, inference_run: 0 },
      { time: "t3000", atMs: 3_000, timeout_eval: 3, inference_run: 2 },
    ]);
  });

  it("has no pairs and a zero total for a quiet window", () => {
    const breakdown = failureBreakdown([{ atMs: 1, failures: [] }], time);
    expect(breakdown.pairs).toEqual([]);
    expect(breakdown.total).toBe(0);
    expect(breakdown.rows).toEqual([{ time: "t1", atMs: 1 }]);
  });
});

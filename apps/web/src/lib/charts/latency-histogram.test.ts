import { describe, expect, it } from "vitest";
import { bucketLatencies, percentile } from "./latency-histogram";

describe("bucketLatencies", () => {
  it("counts each value into the bucket whose range holds it; edges belong to the upper bucket", () => {
    const buckets = bucketLatencies([0, 49, 50, 99, 100, 450, 999, 1_000, 1_999, 12_000, 60_000]);
    expect(buckets.map((bucket) => [bucket.label, bucket.count])).toEqual([
      ["< 50 ms", 2],
      ["50 ms–100 ms", 2],
      ["100 ms–200 ms", 1],
      ["200 ms–500 ms", 1],
      ["500 ms–1 s", 1],
      ["1 s–2 s", 2],
      ["2 s–5 s", 0],
      ["5 s–10 s", 0],
      ["≥ 10 s", 2],
    ]);
  });

  it("drops negative and non-finite values and keeps every bucket for an empty input", () => {
    const buckets = bucketLatencies([-5, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(buckets).toHaveLength(9);
    expect(buckets.every((bucket) => bucket.count === 0)).toBe(true);
  });

  it("uses custom edges, the last bucket open-ended", () => {
    expect(bucketLatencies([1, 15, 25], [0, 10, 20])).toEqual([
      { label: "< 10 ms", fromMs: 0, toMs: 10, count: 1 },
      { label: "10 ms–20 ms", fromMs: 10, toMs: 20, count: 1 },
      { label: "≥ 20 ms", fromMs: 20, toMs: null, count: 1 },
    ]);
  });
});

describe("percentile", () => {
  it("takes the nearest rank, so the value is one that happened", () => {
    const values = [40, 10, 30, 20, 50];
    expect(percentile(values, 50)).toBe(30);
    expect(percentile(values, 90)).toBe(50);
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(50);
  });

  it("is null without values", () => {
    expect(percentile([], 50)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import {
  compareHref,
  distinctValues,
  filterRuns,
  modelSize,
  parseRunIds,
  resolvedFraction,
} from "./benchmark-runs";

const run = (id: string, model: string, dataset: string, resolvedCount = 0, totalCount = 0) => ({
  id,
  model,
  dataset,
  resolvedCount,
  totalCount,
});

describe("modelSize", () => {
  it("reads the parameter count a model name states", () => {
    expect(modelSize("Qwen/Qwen3-8B")).toBe("8B");
    expect(modelSize("Qwen3-14B-Instruct")).toBe("14B");
    expect(modelSize("Qwen/Qwen3-30B-A3B")).toBe("30B");
    expect(modelSize("Qwen3-0.6B")).toBe("0.6B");
    expect(modelSize("tiny-125m")).toBe("125M");
    expect(modelSize("acme/patcher-v1")).toBeNull();
    expect(modelSize("Qwen3")).toBeNull();
  });
});

describe("resolvedFraction", () => {
  it("divides resolved by graded instances; null before any result", () => {
    expect(resolvedFraction({ resolvedCount: 3, totalCount: 12 })).toBe(0.25);
    expect(resolvedFraction({ resolvedCount: 0, totalCount: 0 })).toBeNull();
  });
});

describe("filterRuns and distinctValues", () => {
  const runs = [
    run("a", "Qwen3-8B", "verified"),
    run("b", "Qwen3-4B", "verified"),
    run("c", "Qwen3-8B", "lite"),
  ];
  it("keeps runs of the model and dataset asked for", () => {
    expect(filterRuns(runs, { model: "Qwen3-8B" }).map((r) => r.id)).toEqual(["a", "c"]);
    expect(filterRuns(runs, { model: "Qwen3-8B", dataset: "lite" }).map((r) => r.id)).toEqual(["c"]);
    expect(filterRuns(runs, {}).map((r) => r.id)).toEqual(["a", "b", "c"]);
  });
  it("lists each model once, sorted", () => {
    expect(distinctValues(runs, "model")).toEqual(["Qwen3-4B", "Qwen3-8B"]);
  });
});

describe("parseRunIds and compareHref", () => {
  it("splits, trims and dedupes the runs parameter, keeping order", () => {
    expect(parseRunIds(" b, a,,b ")).toEqual(["b", "a"]);
    expect(parseRunIds(["a,b", "c"])).toEqual(["a", "b", "c"]);
    expect(parseRunIds(undefined)).toEqual([]);
    expect(parseRunIds(Array.from({ length: 12 }, (_, i) => `r${i}`).join(","))).toHaveLength(8);
  });
  it("round-trips through the comparison URL", () => {
    const href = compareHref(["swe-qwen3-8b:1", "run@2"]);
    const param = new URL(href, "http://x").searchParams.get("runs") ?? undefined;
    expect(parseRunIds(param)).toEqual(["swe-qwen3-8b:1", "run@2"]);
  });
});

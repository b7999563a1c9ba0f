import type { TSweInstance } from "@raas/handlers";
import { describe, expect, it } from "vitest";
import {
  DEMO_PLAN,
  demoStepKey,
  halfGoldPredictions,
  inChunks,
  stepShape,
  trainingRunsFor,
} from "./demo-plan";

const instance = (id: string, patch: string) =>
  ({ instance_id: id, repo: "o/r", base_commit: "a".repeat(40), patch, test_patch: "" }) as TSweInstance;

describe("demo plan", () => {
  it("runs over math, code and swe, each with its own run key, seed and a step key per index", () => {
    expect(DEMO_PLAN.training.map((run) => run.dataset)).toEqual(["math", "code", "swe"]);
    expect(new Set(DEMO_PLAN.training.map((run) => run.runKey)).size).toBe(DEMO_PLAN.training.length);
    expect(new Set(DEMO_PLAN.training.map((run) => run.seed)).size).toBe(DEMO_PLAN.training.length);
    expect(demoStepKey(0)).toBe("demo-step-0");
    expect(demoStepKey(3)).not.toBe(demoStepKey(2));
  });

  it("starts each run with one group of at least two samples (a group can be informative), then its later shape", () => {
    for (const run of DEMO_PLAN.training) {
      expect(stepShape(run, 0)).toEqual(run.firstStep);
      expect(run.firstStep.groups).toBe(1);
      expect(run.firstStep.groupSize).toBeGreaterThanOrEqual(2);
      expect(stepShape(run, 1)).toEqual(run.laterSteps);
      expect(stepShape(run, run.steps - 1)).toEqual(run.laterSteps);
    }
  });

  it("keeps the runs whose dataset the server ships and names the missing ones once", () => {
    const { runs, missing } = trainingRunsFor(DEMO_PLAN, ["code", "math", "stem"]);
    expect(runs.map((run) => run.runKey)).toEqual(["demo-math", "demo-code"]);
    expect(missing).toEqual(["swe"]);
    expect(trainingRunsFor(DEMO_PLAN, []).runs).toEqual([]);
  });

  it("cuts benchmark instances into a small first chunk, then chunks of the rest's size, in order", () => {
    expect(inChunks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 2, 4)).toEqual([
      [1, 2],
      [3, 4, 5, 6],
      [7, 8, 9, 10],
    ]);
    expect(inChunks([1, 2, 3], 2, 4)).toEqual([[1, 2], [3]]);
    expect(inChunks([1], 2, 4)).toEqual([[1]]);
    expect(inChunks([], 2, 4)).toEqual([]);
    expect(inChunks([1, 2, 3], 0, 0)).toEqual([[1], [2], [3]]);
  });

  it("predicts the gold patch on every other instance and an empty patch on the rest", () => {
    const predictions = halfGoldPredictions(
      [instance("a", "gold-a"), instance("b", "gold-b"), instance("c", "gold-c")],
      "demo-model",
    );
    expect(predictions).toEqual([
      { instance_id: "a", model_name_or_path: "demo-model", model_patch: "gold-a" },
      { instance_id: "b", model_name_or_path: "demo-model", model_patch: "" },
      { instance_id: "c", model_name_or_path: "demo-model", model_patch: "gold-c" },
    ]);
  });
});

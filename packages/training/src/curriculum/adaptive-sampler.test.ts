import { ADAPTIVE_SAMPLING_DEFAULTS } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { drawAdaptive, isRetired, seededUnit, taskWeight, untriedWeight } from "./adaptive-sampler";
import { emptyTaskHistory, type TaskHistory, withOutcomes } from "./task-history";

const policy = {
  targetPassRate: 0.5,
  windowSize: 8,
  retireAfterSolvedInARow: 16,
  reprobeEvery: 10,
  settledWeight: 0.05,
};

function history(taskId: string, outcomes: string, atMs = 1): TaskHistory {
  return withOutcomes(emptyTaskHistory(taskId), outcomes, atMs);
}

function frequencies(tasks: { taskId: string }[], map: Map<string, TaskHistory>, draws = 4_000) {
  const counts = new Map<string, number>();
  for (let i = 0; i < draws; i += 1) {
    // reprobeEvery larger than the draws: only weighted draws.
    const choice = drawAdaptive({
      tasks,
      history: map,
      policy: { ...policy, reprobeEvery: 1_000_000 },
      draws: i,
      exclude: new Set(),
      random: seededUnit(7, i),
    });
    const id = tasks[choice?.index ?? -1]?.taskId ?? "none";
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe("taskWeight", () => {
  it("is 1 at the target and for an untried task, settled at always/never solved, 0 when retired", () => {
    expect(taskWeight(undefined, policy)).toBe(1);
    expect(taskWeight(history("t", "1010"), policy)).toBe(1);
    expect(taskWeight(history("t", "00000000"), policy)).toBeCloseTo(0.05);
    expect(taskWeight(history("t", "0".repeat(8) + "1".repeat(8)), policy)).toBeCloseTo(0.05);
    expect(taskWeight(history("t", "1".repeat(16)), policy)).toBe(0);
    expect(isRetired(history("t", "1".repeat(15)), policy)).toBe(false);
    // Only the window counts: old failures do not keep an always-solved task near the target.
    const mid = taskWeight(history("t", "00000000" + "11110000"), policy);
    expect(mid).toBe(1);
    const high = taskWeight(history("t", "11111110"), policy);
    expect(high).toBeGreaterThan(0.05);
    expect(high).toBeLessThan(0.5);
  });

  it("favours tasks near a target that is not 0.5", () => {
    const p = { ...policy, targetPassRate: 0.25 };
    expect(taskWeight(history("t", "10001000"), p)).toBe(1);
    expect(taskWeight(history("t", "11001100"), p)).toBeGreaterThan(taskWeight(history("t", "11101110"), p));
  });
});

describe("drawAdaptive", () => {
  const tasks = ["near", "easy", "hard", "new", "done"].map((taskId) => ({ taskId }));
  const map = new Map([
    ["near", history("near", "10101010")],
    ["easy", history("easy", "11111111")],
    ["hard", history("hard", "00000000")],
    ["done", history("done", "1".repeat(20))],
  ]);

  it("weighs an untried task as the tried, not retired ones on average (1 before any was tried)", () => {
    expect(untriedWeight(tasks, new Map(), policy)).toBe(1);
    expect(untriedWeight(tasks, map, policy)).toBeCloseTo((1 + 2 * (0.05 + 0.95 * 0)) / 3);
  });

  it("draws near-target and untried tasks far more often than settled ones, retired ones never", () => {
    const counts = frequencies(tasks, map);
    const near = counts.get("near") ?? 0;
    expect(near).toBeGreaterThan(10 * (counts.get("easy") ?? 0));
    expect(near).toBeGreaterThan(10 * (counts.get("hard") ?? 0));
    // Untried: the mean weight of the tried, not retired tasks ((1 + 0.05 + 0.05) / 3).
    expect(counts.get("new") ?? 0).toBeGreaterThan(3 * (counts.get("hard") ?? 0));
    expect(counts.get("new") ?? 0).toBeLessThan(near);
    expect(counts.get("easy") ?? 0).toBeGreaterThan(0);
    expect(counts.get("done")).toBeUndefined();
  });

  it("re-probes the retired task attempted longest ago every reprobeEvery-th draw", () => {
    const retired = new Map([
      ["a", history("a", "1".repeat(16), 50)],
      ["b", history("b", "1".repeat(16), 20)],
      ["c", history("c", "1010")],
    ]);
    const input = { tasks: [{ taskId: "a" }, { taskId: "b" }, { taskId: "c" }], history: retired, policy };
    const probe = drawAdaptive({ ...input, draws: 9, exclude: new Set(), random: 0.5 });
    expect(probe).toEqual({ index: 1, reason: "reprobe" });
    // Being probed already (in flight): the next oldest.
    expect(drawAdaptive({ ...input, draws: 19, exclude: new Set(["b"]), random: 0.5 })).toEqual({
      index: 0,
      reason: "reprobe",
    });
    // Other draws never take a retired task.
    for (let draws = 0; draws < 9; draws += 1)
      expect(drawAdaptive({ ...input, draws, exclude: new Set(), random: seededUnit(3, draws) })?.index).toBe(
        2,
      );
  });

  it("avoids tasks already running in the step while others remain, then falls back to the stalest", () => {
    const two = [{ taskId: "x" }, { taskId: "y" }];
    const m = new Map([["y", history("y", "1".repeat(16), 5)]]);
    expect(
      drawAdaptive({ tasks: two, history: m, policy, draws: 0, exclude: new Set(["x"]), random: 0.3 }),
    ).toEqual({
      index: 1,
      reason: "fallback",
    });
    expect(
      drawAdaptive({ tasks: [], history: m, policy, draws: 0, exclude: new Set(), random: 0.3 }),
    ).toBeNull();
  });

  it("is deterministic for a seed and counter, and in [0, 1)", () => {
    expect(seededUnit(1, 2)).toBe(seededUnit(1, 2));
    expect(seededUnit(1, 2)).not.toBe(seededUnit(1, 3));
    for (let i = 0; i < 1_000; i += 1) {
      const u = seededUnit(42, i);
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
    }
    expect(ADAPTIVE_SAMPLING_DEFAULTS.targetPassRate).toBe(0.5);
  });
});

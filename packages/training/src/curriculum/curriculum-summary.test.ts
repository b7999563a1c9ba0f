import { describe, expect, it } from "vitest";
import { summarizeTasks } from "./curriculum-summary";
import { emptyTaskHistory, withOutcomes } from "./task-history";

describe("summarizeTasks", () => {
  const tasks = ["a", "b", "c", "d"].map((taskId) => ({ taskId }));
  const history = new Map([
    ["a", withOutcomes(emptyTaskHistory("a"), "0000", 1)],
    ["b", withOutcomes(emptyTaskHistory("b"), "0101", 1)],
    ["c", withOutcomes(emptyTaskHistory("c"), "11111111", 1)],
  ]);

  it("counts unexplored, active and retired tasks and bins the window pass rates", () => {
    const summary = summarizeTasks(tasks, history, { windowSize: 4, retireAfterSolvedInARow: 8 });
    expect(summary).toMatchObject({
      total: 4,
      unexplored: 1,
      active: 2,
      retired: 1,
      neverSolved: 1,
      alwaysSolved: 1,
    });
    expect(summary.histogram).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(summary.meanPassRate).toBeCloseTo(0.5);
  });

  it("retires nothing under a policy that does not retire", () => {
    const summary = summarizeTasks(tasks, history, { windowSize: 4, retireAfterSolvedInARow: null });
    expect(summary.retired).toBe(0);
    expect(summary.active).toBe(3);
  });
});

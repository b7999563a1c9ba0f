import { describe, expect, it } from "vitest";
import { seededOrder, taskAt } from "./task-draw";

const tasks = ["a", "b", "c", "d"].map((taskId) => ({ taskId, kind: "sleep", payload: {} }));

describe("taskAt", () => {
  it("ends an inline source after its last task", () => {
    expect(taskAt(tasks, 3, { cycle: false, shuffleSeed: undefined })?.taskId).toBe("d");
    expect(taskAt(tasks, 4, { cycle: false, shuffleSeed: undefined })).toBeNull();
  });
  it("cycles a dataset in epochs, each a permutation", () => {
    const epoch = (n: number) =>
      Array.from(
        { length: 4 },
        (_, i) => taskAt(tasks, n * 4 + i, { cycle: true, shuffleSeed: 7 })?.taskId,
      ).sort();
    expect(epoch(0)).toEqual(["a", "b", "c", "d"]);
    expect(epoch(3)).toEqual(["a", "b", "c", "d"]);
  });
  it("draws the same seeded order every time", () => {
    expect(seededOrder(10, 3)).toEqual(seededOrder(10, 3));
    expect([...seededOrder(10, 3)].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(seededOrder(10, 3)).not.toEqual(seededOrder(10, 4));
  });
});

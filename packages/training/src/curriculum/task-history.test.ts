import { describe, expect, it } from "vitest";
import {
  emptyTaskHistory,
  outcomesOf,
  RECENT_OUTCOMES_KEPT,
  trailingSuccesses,
  windowPassRate,
  withOutcomes,
} from "./task-history";

describe("task history", () => {
  it("counts attempts and successes, and successes since the last failure", () => {
    let h = withOutcomes(emptyTaskHistory("t"), outcomesOf([1, 0, 1, 1]), 10);
    expect(h).toMatchObject({
      attempts: 4,
      successes: 3,
      recent: "1011",
      solvedInARow: 2,
      lastAttemptAtMs: 10,
    });
    h = withOutcomes(h, "111", 20);
    expect(h).toMatchObject({ attempts: 7, successes: 6, solvedInARow: 5, lastAttemptAtMs: 20 });
    h = withOutcomes(h, "10", 30);
    expect(h.solvedInARow).toBe(0);
  });

  it("keeps only the last outcomes and takes the pass rate over the last K of them", () => {
    let h = emptyTaskHistory("t");
    h = withOutcomes(h, "0".repeat(RECENT_OUTCOMES_KEPT), 1);
    h = withOutcomes(h, "1111", 2);
    expect(h.recent).toHaveLength(RECENT_OUTCOMES_KEPT);
    expect(h.attempts).toBe(RECENT_OUTCOMES_KEPT + 4);
    expect(windowPassRate(h, 4)).toBe(1);
    expect(windowPassRate(h, 8)).toBe(0.5);
    expect(windowPassRate(emptyTaskHistory("u"), 8)).toBeNull();
  });

  it("reads rewards > 0 as successes", () => {
    expect(outcomesOf([0, 0.5, -1, 1])).toBe("0101");
    expect(trailingSuccesses("0111")).toBe(3);
    expect(trailingSuccesses("")).toBe(0);
  });
});

import type { TCurriculumSnapshot } from "@raas/shared";
import type { CurriculumStore } from "@raas/training";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

export interface CurriculumStoreHarness {
  open(): Promise<CurriculumStore>;
  /** Empties the store between tests (may return a new one). */
  reset(store: CurriculumStore): Promise<CurriculumStore>;
  close(store: CurriculumStore): Promise<void>;
}

function snapshot(stepId: string, stepIndex: number, retired: number): TCurriculumSnapshot {
  return {
    stepId,
    stepIndex,
    atMs: 1_000 + stepIndex,
    total: 10,
    unexplored: 2,
    active: 8 - retired,
    retired,
    neverSolved: 1,
    alwaysSolved: 3,
    histogram: [1, 0, 0, 0, 2, 0, 0, 0, 0, 3],
    meanPassRate: 0.45,
  };
}

/** What every `CurriculumStore` adapter must do. */
export function describeCurriculumStoreContract(name: string, harness: CurriculumStoreHarness): void {
  describe(`${name}: CurriculumStore contract`, () => {
    let store: CurriculumStore;
    beforeAll(async () => {
      store = await harness.open();
    }, 60_000);
    beforeEach(async () => {
      store = await harness.reset(store);
    });
    afterAll(async () => {
      await harness.close(store);
    });

    it("appends outcomes to the run's and the dataset-wide history: counts, recent outcomes, solved in a row", async () => {
      await store.recordOutcomes("math", "run_a", [{ taskId: "t1", outcomes: "0111" }], 10);
      await store.recordOutcomes(
        "math",
        "run_a",
        [
          { taskId: "t1", outcomes: "11" },
          { taskId: "t2", outcomes: "0" },
        ],
        20,
      );
      await store.recordOutcomes("math", "run_b", [{ taskId: "t1", outcomes: "10" }], 30);
      const a = await store.listTaskHistory("math", "run_a");
      expect(a).toEqual([
        { taskId: "t1", attempts: 6, successes: 5, recent: "011111", solvedInARow: 5, lastAttemptAtMs: 20 },
        { taskId: "t2", attempts: 1, successes: 0, recent: "0", solvedInARow: 0, lastAttemptAtMs: 20 },
      ]);
      expect(await store.listTaskHistory("math", "run_b")).toEqual([
        { taskId: "t1", attempts: 2, successes: 1, recent: "10", solvedInARow: 0, lastAttemptAtMs: 30 },
      ]);
      const across = await store.listTaskHistory("math", null);
      expect(across.find((t) => t.taskId === "t1")).toEqual({
        taskId: "t1",
        attempts: 8,
        successes: 6,
        recent: "01111110",
        solvedInARow: 0,
        lastAttemptAtMs: 30,
      });
      expect(await store.listTaskHistory("code", "run_a")).toEqual([]);
    });

    it("keeps the last 256 outcomes and counts a task named twice in one call twice", async () => {
      await store.recordOutcomes("math", "run_a", [{ taskId: "t", outcomes: "0".repeat(300) }], 1);
      await store.recordOutcomes(
        "math",
        "run_a",
        [
          { taskId: "t", outcomes: "11" },
          { taskId: "t", outcomes: "1" },
        ],
        2,
      );
      const [t] = await store.listTaskHistory("math", "run_a");
      expect(t?.attempts).toBe(303);
      expect(t?.recent).toHaveLength(256);
      expect(t?.recent.endsWith("0111")).toBe(true);
      expect(t?.solvedInARow).toBe(3);
    });

    it("counts every outcome of concurrent writers", async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.recordOutcomes(
            "math",
            `run_${i % 3}`,
            [
              { taskId: "x", outcomes: "10" },
              { taskId: "y", outcomes: "1" },
            ],
            i,
          ),
        ),
      );
      const across = await store.listTaskHistory("math", null);
      expect(across.map((t) => [t.taskId, t.attempts, t.successes])).toEqual([
        ["x", 24, 12],
        ["y", 12, 12],
      ]);
      expect((await store.listTaskHistory("math", "run_1")).map((t) => t.attempts)).toEqual([8, 4]);
    });

    it("stores the sampler state per run and source, and snapshots per step (replaced, oldest step first)", async () => {
      expect(await store.getSamplerState("run_a", "math")).toBeNull();
      await store.saveSamplerState("run_a", "math", { draws: 5 });
      await store.saveSamplerState("run_a", "math", { draws: 9 });
      await store.saveSamplerState("run_a", "code", { draws: 1 });
      expect(await store.getSamplerState("run_a", "math")).toEqual({ draws: 9 });
      expect(await store.getSamplerState("run_b", "math")).toBeNull();

      await store.saveSnapshot("run_a", snapshot("stp_2", 2, 1));
      await store.saveSnapshot("run_a", snapshot("stp_1", 1, 0));
      await store.saveSnapshot("run_a", snapshot("stp_2", 2, 3));
      await store.saveSnapshot("run_b", snapshot("stp_9", 0, 0));
      expect(await store.listSnapshots("run_a")).toEqual([snapshot("stp_1", 1, 0), snapshot("stp_2", 2, 3)]);
      expect(await store.listSnapshots("run_c")).toEqual([]);
    });
  });
}

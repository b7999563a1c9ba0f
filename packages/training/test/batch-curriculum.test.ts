import { describe, expect, it } from "vitest";
import type { TaskCatalog } from "../src/batches/batch-system.types";
import { MemoryCurriculumStore } from "../src/memory/memory-curriculum-store";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();

/** Three always-solved, three never-solved and three mixed tasks (group size 2). */
const TASKS = [
  ...["easy-1", "easy-2", "easy-3"].map((id) => groupTask(id, [1, 1])),
  ...["hard-1", "hard-2", "hard-3"].map((id) => groupTask(id, [0, 0])),
  ...["mid-1", "mid-2", "mid-3"].map((id) => groupTask(id, [1, 0])),
];
const catalog: TaskCatalog = {
  list: async () => [{ name: "cur", size: TASKS.length, kinds: ["grouptask"] }],
  tasks: async (name) => (name === "cur" ? TASKS : null),
};
const adaptive = {
  policy: "adaptive" as const,
  windowSize: 4,
  retireAfterSolvedInARow: 2,
  reprobeEvery: 1_000,
  settledWeight: 0.05,
};

describe("BatchSystem: adaptive task sampling", () => {
  it("keeps per-task history, retires solved tasks, favours mixed ones and survives a restart", async () => {
    const curriculum = new MemoryCurriculumStore();
    const h = await start({ catalog, curriculum });
    const { run } = await h.batches.createRun({ name: "curriculum" });
    const stepOf = (i: number) => ({
      runId: run.id,
      stepKey: `s${i}`,
      tasks: { type: "dataset" as const, dataset: "cur" },
      groupSize: 2,
      groups: 2,
      shuffleSeed: 11,
      taskSampling: adaptive,
      dynamicSampling: { policy: "zero-variance" as const, overProvision: 1 },
    });
    const stepIds: string[] = [];
    // Until every task was tried (an untried task weighs what tried ones do on average).
    for (let i = 0; i < 40; i += 1) {
      const { step } = await h.batches.createStep(stepOf(i));
      expect((await closedStep(h, step.id)).status).toBe("completed");
      stepIds.push(step.id);
      if ((await h.batches.curriculumStats(run.id)).current?.unexplored === 0) break;
    }
    // Easy tasks are retired after one group of 2.
    const history = new Map((await curriculum.listTaskHistory("cur", run.id)).map((t) => [t.taskId, t]));
    expect(history.get("easy-1")).toMatchObject({
      successes: history.get("easy-1")?.attempts,
      solvedInARow: 2,
    });
    const stats = await h.batches.curriculumStats(run.id);
    expect(stats.current).toMatchObject({ total: 9, retired: 3, unexplored: 0 });
    expect(stats.current?.histogram[0]).toBe(3);
    expect(stats.current?.histogram[5]).toBe(3);
    expect(stats.snapshots.map((s) => s.stepId)).toEqual(stepIds);
    // The dataset-wide history has the same attempts (one run so far).
    const across = await curriculum.listTaskHistory("cur", null);
    expect(across.reduce((sum, t) => sum + t.attempts, 0)).toBe(
      [...history.values()].reduce((sum, t) => sum + t.attempts, 0),
    );
    const drawsBefore = (await curriculum.getSamplerState(run.id, "cur"))?.draws ?? 0;
    expect(drawsBefore).toBeGreaterThanOrEqual(9);

    // A restarted system goes on from the stored state: retired tasks stay out, the clock goes on.
    await h.restartBatches();
    const drawn: string[] = [];
    for (let i = stepIds.length; i < stepIds.length + 4; i += 1) {
      const { step } = await h.batches.createStep(stepOf(i));
      expect((await closedStep(h, step.id)).status).toBe("completed");
      drawn.push(...(await h.batches.listGroups(step.id)).map((g) => g.taskId));
    }
    expect(drawn.filter((id) => id.startsWith("easy"))).toEqual([]);
    const mids = drawn.filter((id) => id.startsWith("mid")).length;
    expect(mids).toBeGreaterThan(drawn.length / 2);
    expect((await curriculum.getSamplerState(run.id, "cur"))?.draws).toBe(drawsBefore + drawn.length);
  });

  it("draws in the source's order under uniform sampling and still records the history", async () => {
    const curriculum = new MemoryCurriculumStore();
    const h = await start({ catalog, curriculum });
    const { run } = await h.batches.createRun({ name: "uniform" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "dataset", dataset: "cur" },
      groupSize: 2,
      groups: 1,
      dynamicSampling: { policy: "none" },
    });
    await closedStep(h, step.id);
    const groups = await h.batches.listGroups(step.id);
    expect(groups.map((g) => g.taskId)).toEqual(["easy-1"]);
    const history = await curriculum.listTaskHistory("cur", run.id);
    expect(history).toEqual([expect.objectContaining({ taskId: "easy-1", attempts: 2, successes: 2 })]);
    const stats = await h.batches.curriculumStats(run.id);
    expect(stats.sampling).toEqual({ policy: "uniform" });
    expect(stats.current).toMatchObject({ total: 9, unexplored: 8, active: 1, retired: 0 });
    // A finished run's history is dropped from memory, not from the store.
    await h.batches.finishRun(run.id);
    expect((await h.batches.curriculumStats(run.id)).current).toEqual(
      stats.current === null ? null : { ...stats.current, atMs: expect.any(Number) },
    );
  });

  it("refuses an adaptive policy with a bad target pass rate with a 400 naming the field", async () => {
    const h = await start({ catalog });
    const { run } = await h.batches.createRun({ name: "bad" });
    await expect(
      h.batches.createStep({
        runId: run.id,
        tasks: { type: "dataset", dataset: "cur" },
        groupSize: 2,
        groups: 1,
        taskSampling: { policy: "adaptive", targetPassRate: 2 },
      }),
    ).rejects.toMatchObject({
      failure: {
        code: "VALIDATION_FAILED",
        message: expect.stringContaining("targetPassRate"),
      },
    });
  });

  it("keeps inline tasks' history per run: another run's inline tasks with the same ids start fresh", async () => {
    const curriculum = new MemoryCurriculumStore();
    const h = await start({ catalog, curriculum });
    const inlineStep = (runId: string, rewards: number[]) => ({
      runId,
      tasks: { type: "inline" as const, tasks: [groupTask("t-1", rewards)] },
      groupSize: 2,
      groups: 1,
      taskSampling: { ...adaptive, scope: "dataset" as const },
      dynamicSampling: { policy: "none" as const },
    });
    const { run: first } = await h.batches.createRun({ name: "inline-a" });
    const { step: a } = await h.batches.createStep(inlineStep(first.id, [1, 1]));
    await closedStep(h, a.id);
    const { run: second } = await h.batches.createRun({ name: "inline-b" });
    const { step: b } = await h.batches.createStep(inlineStep(second.id, [0, 0]));
    await closedStep(h, b.id);

    expect(await curriculum.listTaskHistory(`inline:${first.id}`, null)).toEqual([
      expect.objectContaining({ taskId: "t-1", attempts: 2, successes: 2 }),
    ]);
    expect(await curriculum.listTaskHistory(`inline:${second.id}`, null)).toEqual([
      expect.objectContaining({ taskId: "t-1", attempts: 2, successes: 0 }),
    ]);
    expect(await curriculum.listTaskHistory("inline", null)).toEqual([]);
    const current = (await h.batches.curriculumStats(second.id)).current;
    expect(current).toMatchObject({ total: 1, unexplored: 0 });
    expect(current?.histogram[0]).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();
const closed = closedStep;

describe("BatchSystem: groups decided early, handed out in completion order", () => {
  it("hands out only informative groups under zero-variance and drops the rest as waste", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "dapo" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("solved", [1, 1, 1, 1]),
          groupTask("mixed-a", [1, 0, 0, 1]),
          groupTask("never", [0, 0, 0, 0]),
          groupTask("mixed-b", [0, 0, 0, 1]),
        ],
      },
      groupSize: 4,
      groups: 2,
      dynamicSampling: { policy: "zero-variance", overProvision: 2 },
    });
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const delivered = groups.filter((g) => g.state === "delivered");
    expect(delivered.map((g) => g.taskId).sort()).toEqual(["mixed-a", "mixed-b"]);
    expect(delivered.every((g) => g.decision === "informative")).toBe(true);
    const dropped = groups.filter((g) => g.state === "dropped");
    expect(dropped.every((g) => g.decision === "uninformative")).toBe(true);
    expect(done.stats.groupsDelivered).toBe(2);
    expect(done.stats.trajectories).toBe(8);
    expect(done.stats.rewardMean).toBe(0.375);
    expect(done.stats.waste.zeroVariance.jobs).toBe(dropped.length * 4);
    expect(done.stats.waste.zeroVariance.generatedTokens).toBe(dropped.length * 4 * 5);

    const next = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 10, timeoutMs: 1_000 });
    expect(next.done).toBe(true);
    expect(next.groups.map((g) => g.seq)).toEqual([1, 2]);
    for (const group of next.groups) {
      expect(group.trajectories).toHaveLength(4);
      for (const t of group.trajectories) {
        expect(t.tokens).toEqual([1, 2, 3, 100, 101, 102, 103, 104]);
        expect(t.lossMask).toEqual([0, 0, 0, 1, 1, 1, 1, 1]);
        expect(t.logprobs.slice(3)).toEqual([-0.5, -0.5, -0.5, -0.5, -0.5]);
        expect(t.trainable).toBe(true);
      }
      expect(group.trajectories.map((t) => t.reward)).toEqual(group.rewards);
    }
  });

  it("decides a group informative as soon as two members differ, before the others finish", async () => {
    const h = await start();
    h.gates.hold("t:2", "t:3");
    const { run } = await h.batches.createRun({ name: "early" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("t", [1, 0, 1, 1])] },
      groupSize: 4,
      groups: 1,
    });
    await h.driveUntil(async () => (await h.batches.listGroups(step.id))[0]?.decision === "informative");
    const [group] = await h.batches.listGroups(step.id);
    expect(group?.state).toBe("running");
    expect(group?.members.filter((m) => m.status === "running")).toHaveLength(2);
    const polled = await h.drive(h.batches.nextGroups(step.id, { afterSeq: 0, limit: 10, timeoutMs: 50 }));
    expect(polled.groups).toEqual([]);
    expect(polled.done).toBe(false);
    // The long-poll wakes when the group is handed out, long before its timeout.
    const waiting = h.batches.nextGroups(step.id, { afterSeq: 0, limit: 10, timeoutMs: 20_000 });
    h.gates.open("t:2", "t:3");
    const next = await h.drive(waiting, 10_000);
    expect(next.groups.map((g) => g.taskId)).toEqual(["t"]);
    expect((await closed(h, step.id)).status).toBe("completed");
  });

  it("refills from the task source as groups turn out uninformative", async () => {
    const h = await start();
    const tasks = [
      ...Array.from({ length: 6 }, (_, i) => groupTask(`flat-${i}`, [1, 1])),
      groupTask("good-1", [1, 0]),
      groupTask("good-2", [0, 1]),
    ];
    const { run } = await h.batches.createRun({ name: "refill" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks },
      groupSize: 2,
      groups: 2,
      dynamicSampling: { policy: "zero-variance", overProvision: 1 },
    });
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.groupsStarted).toBe(8);
    expect(done.stats.uninformative).toBe(6);
    expect(done.stats.groupsDelivered).toBe(2);
    expect(done.stats.jobsSubmitted).toBe(16);
  });

  it("hands out every complete group under policy none, and ends `exhausted` when the source runs out", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "none" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("a", [1, 1]), groupTask("b", [0, 1])] },
      groupSize: 2,
      groups: 3,
      dynamicSampling: { policy: "none" },
    });
    const done = await closed(h, step.id);
    expect(done.status).toBe("exhausted");
    expect(done.stats.groupsDelivered).toBe(2);
    const next = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 10, timeoutMs: 100 });
    expect(next.groups.map((g) => g.decision).sort()).toEqual(["informative", "uninformative"]);
    expect(next.done).toBe(true);
  });

  it("rejects bad input with clear errors and stores nothing", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "bad" });
    await expect(
      h.batches.createStep({
        runId: "run_nope",
        tasks: { type: "inline", tasks: [groupTask("a", [1])] },
        groupSize: 1,
        groups: 1,
      }),
    ).rejects.toMatchObject({ failure: { code: "NOT_FOUND" } });
    await expect(
      h.batches.createStep({
        runId: run.id,
        tasks: { type: "inline", tasks: [groupTask("a", [1])] },
        groupSize: 0,
        groups: 1,
      }),
    ).rejects.toMatchObject({
      failure: { code: "VALIDATION_FAILED", message: expect.stringContaining("groupSize") },
    });
    await expect(
      h.batches.createStep({
        runId: run.id,
        tasks: { type: "inline", tasks: [{ taskId: "x", kind: "grouptask", payload: { rewards: "no" } }] },
        groupSize: 1,
        groups: 1,
      }),
    ).rejects.toMatchObject({
      failure: { code: "VALIDATION_FAILED", message: expect.stringContaining("rewards") },
    });
    await expect(
      h.batches.createStep({
        runId: run.id,
        tasks: { type: "dataset", dataset: "nope" },
        groupSize: 1,
        groups: 1,
      }),
    ).rejects.toMatchObject({
      failure: { code: "VALIDATION_FAILED", message: expect.stringContaining("nope") },
    });
    expect(await h.batches.listSteps(run.id)).toEqual([]);
    expect((await h.batches.getRun(run.id)).stepCount).toBe(0);
  });

  it("returns the same run and step for the same keys", async () => {
    const h = await start();
    const first = await h.batches.createRun({ name: "keyed", runKey: "trainer-1" });
    const again = await h.batches.createRun({ name: "keyed", runKey: "trainer-1" });
    expect(again).toEqual({ run: first.run, created: false });
    const request = {
      runId: first.run.id,
      stepKey: "step-0",
      tasks: { type: "inline" as const, tasks: [groupTask("a", [1, 0])] },
      groupSize: 2,
      groups: 1,
    };
    const step = await h.batches.createStep(request);
    const same = await h.batches.createStep(request);
    expect(same.created).toBe(false);
    expect(same.step.id).toBe(step.step.id);
    expect(await h.batches.listSteps(first.run.id)).toHaveLength(1);
  });
});

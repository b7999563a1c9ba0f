import { describe, expect, it } from "vitest";
import { MemoryBatchStore } from "../src/memory/memory-batch-store";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();
const closed = closedStep;

describe("BatchSystem: redundant jobs cancelled, finished samples carried into the next step", () => {
  it("cancels the in-flight members of undecided groups and carries their finished samples over", async () => {
    const h = await start();
    h.gates.hold("slow:1", "slow:2", "slow:3");
    const { run } = await h.batches.createRun({ name: "carry" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("slow", [1, 0, 0, 0]), groupTask("fast", [1, 0, 1, 0])] },
      groupSize: 4,
      groups: 1,
      dynamicSampling: { policy: "zero-variance", overProvision: 2 },
    });
    const first = await closed(h, step.id);
    expect(first.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const slow = groups.find((g) => g.taskId === "slow");
    expect(slow?.state).toBe("carried");
    expect(slow?.members.map((m) => m.status)).toEqual(["finished", "cancelled", "cancelled", "cancelled"]);
    expect(first.stats.jobsCancelled).toBe(3);
    expect(first.stats.trajectoriesCarriedOver).toBe(1);
    // The cancels went through the engine's normal path.
    const cancels = (slow?.members.slice(1) ?? []).map((member) => member.jobId);
    const { jobs } = await h.drive(h.engine.waitForJobs(cancels, { timeoutMs: 60_000 }));
    expect(jobs.map((job) => job.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    await h.driveUntil(async () => (await h.batches.getStep(step.id)).stats.waste.cancelled.jobs === 3);

    // The next step starts with the carried group: its finished sample kept, three slots run anew.
    const next = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("other", [1, 1, 1, 1])] },
      groupSize: 4,
      groups: 1,
    });
    h.gates.open("slow:1", "slow:2", "slow:3");
    const second = await closed(h, next.step.id);
    expect(second.status).toBe("completed");
    expect(second.stats.trajectoriesCarriedIn).toBe(1);
    const result = await h.batches.nextGroups(next.step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    const carried = result.groups.find((g) => g.taskId === "slow");
    expect(carried?.trajectories[0]?.carriedFromStepId).toBe(step.id);
    expect(carried?.trajectories[0]?.jobId).toBe(slow?.members[0]?.jobId);
    expect(carried?.trajectories.slice(1).every((t) => t.carriedFromStepId === null)).toBe(true);
    expect(carried?.rewards).toEqual([1, 0, 0, 0]);
    // A carried group is taken once.
    expect((await h.store.listCarriedGroups(run.id)).map((g) => g.taskId)).not.toContain("slow");
  });

  it("keeps an informative group's running members going past the close; the next step hands it out", async () => {
    // No reconcile sweep during the test: the running members' ends must reach the next step's
    // group as they happen (through the closed step's state, still held), not by a later re-read.
    const h = await start({ reconcileEveryMs: 600_000 });
    h.gates.hold("inf:2", "inf:3");
    const { run } = await h.batches.createRun({ name: "carry-whole" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("inf", [1, 0, 1, 0]), groupTask("quick", [1, 0])] },
      groupSize: 4,
      groups: 1,
      dynamicSampling: { policy: "zero-variance", overProvision: 2 },
    });
    // "quick" has only its two scripted rewards: slots 2 and 3 read 0 — informative and complete fast.
    const first = await closed(h, step.id);
    expect(first.status).toBe("completed");
    const inf = (await h.batches.listGroups(step.id)).find((g) => g.taskId === "inf");
    expect(inf).toMatchObject({ state: "carried", decision: "informative" });
    expect(first.stats.jobsCancelled).toBe(0);
    const running = inf?.members.filter((m) => m.status === "running") ?? [];
    expect(running).toHaveLength(2);
    const next = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("flat", [1, 1, 1, 1])] },
      groupSize: 4,
      groups: 1,
    });
    h.gates.open("inf:2", "inf:3");
    const second = await closed(h, next.step.id);
    expect(second.status).toBe("completed");
    const out = await h.batches.nextGroups(next.step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    const whole = out.groups.find((g) => g.taskId === "inf");
    expect(whole?.rewards).toEqual([1, 0, 1, 0]);
    // The same jobs, never cancelled nor re-run.
    expect(whole?.trajectories.map((t) => t.jobId)).toEqual(inf?.members.map((m) => m.jobId));
    expect(second.stats.trajectoriesCarriedIn).toBe(2);
    for (const member of running) expect((await h.engine.getJob(member.jobId)).status).toBe("completed");
  });

  it("goes on with a running step after a restart of the batch system", async () => {
    const store = new MemoryBatchStore();
    const h = await start({ store });
    h.gates.hold("a:0", "a:1");
    const { run } = await h.batches.createRun({ name: "restart" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("a", [0, 1])] },
      groupSize: 2,
      groups: 1,
    });
    await h.driveUntil(
      async () => (await h.batches.listGroups(step.id))[0]?.members.every((m) => m.jobId !== "") === true,
    );
    await h.restartBatches();
    h.gates.open("a:0", "a:1");
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.groupsDelivered).toBe(1);
    expect(done.stats.jobsSubmitted).toBe(2);
  });

  it("cancelling a step cancels its jobs and keeps finished samples for the next step", async () => {
    const h = await start();
    h.gates.hold("c:1");
    const { run } = await h.batches.createRun({ name: "cancel" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("c", [1, 1])] },
      groupSize: 2,
      groups: 1,
    });
    await h.driveUntil(
      async () => (await h.batches.listGroups(step.id))[0]?.members[0]?.status === "finished",
    );
    const cancelled = await h.batches.cancelStep(step.id);
    expect(cancelled.status).toBe("cancelled");
    const [group] = await h.batches.listGroups(step.id);
    expect(group?.state).toBe("carried");
    const ended = group?.members[1]?.jobId as string;
    const { jobs } = await h.drive(h.engine.waitForJobs([ended], { timeoutMs: 60_000 }));
    expect(jobs[0]?.status).toBe("cancelled");
    const next = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 5, timeoutMs: 1_000 });
    expect(next).toMatchObject({ groups: [], done: true });
  });
});

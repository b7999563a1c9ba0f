import { describe, expect, it } from "vitest";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();
const closed = closedStep;

describe("BatchSystem: infrastructure failures are re-run, never reward 0", () => {
  it("re-runs a member that failed for infrastructure reasons and hands out the group", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "retry" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("flaky", [1, 0, 1], { infraFailures: [2, 0, 0] })] },
      groupSize: 3,
      groups: 1,
      maxInfraRetries: 2,
    });
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.infraRetries).toBe(2);
    expect(done.stats.waste.infraFailures.jobs).toBe(2);
    const [group] = await h.batches.listGroups(step.id);
    expect(group?.members[0]).toMatchObject({ status: "finished", reward: 1, attempts: 3 });
    expect(group?.members[0]?.pastJobIds).toHaveLength(2);
    for (const id of group?.members[0]?.pastJobIds ?? []) {
      const failed = await h.engine.getJob(id);
      expect(failed).toMatchObject({ status: "failed", reward: null, trainable: false });
    }
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    expect(result.groups[0]?.rewards).toEqual([1, 0, 1]);
  });

  it("fails a group whose member runs out of retries; its samples are not handed out", async () => {
    const h = await start();
    h.gates.hold("fine:0");
    const { run } = await h.batches.createRun({ name: "broken" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [groupTask("broken", [1, 0], { infraFailures: [9, 0] }), groupTask("fine", [0, 1])],
      },
      groupSize: 2,
      groups: 1,
      maxInfraRetries: 1,
      dynamicSampling: { policy: "zero-variance", overProvision: 2 },
    });
    await h.driveUntil(async () =>
      (await h.batches.listGroups(step.id)).some((g) => g.decision === "failed"),
    );
    h.gates.open("fine:0");
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    expect(groups.find((g) => g.taskId === "broken")).toMatchObject({ decision: "failed", state: "dropped" });
    expect(done.stats.failedGroups).toBe(1);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    expect(result.groups.map((g) => g.taskId)).toEqual(["fine"]);
  });

  it("counts the policy's own failures as samples with the handler's failure reward", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "agent-fault" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("fault", [1, 1], { agentFailSlots: [1] })] },
      groupSize: 2,
      groups: 1,
    });
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.infraRetries).toBe(0);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    expect(result.groups[0]?.rewards).toEqual([1, -1]);
    expect(result.groups[0]?.trajectories[1]).toMatchObject({ trainable: true, failureKind: "agent" });
  });

  it("hands out a member whose grade was voided (tampered) with reward 0 and counts it in the waste ledger", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "tampered" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("forge", [1, 1], { tamperedSlots: [1], tokens: 7 })] },
      groupSize: 2,
      groups: 1,
    });
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.infraRetries).toBe(0);
    expect(done.stats.waste.tampered).toMatchObject({ jobs: 1, generatedTokens: 7 });
    expect(done.stats.waste.infraFailures.jobs).toBe(0);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    // The handler's failure reward is -1; a voided grade is 0 whatever it says.
    expect(result.groups[0]?.rewards).toEqual([1, 0]);
    expect(result.groups[0]?.trajectories[1]).toMatchObject({
      trainable: true,
      failureKind: "agent",
      reward: 0,
    });
    const [group] = await h.batches.listGroups(step.id);
    const job = await h.engine.getJob(group?.members[1]?.jobId ?? "");
    expect(job.failure?.label).toBe("tampered");
    expect(job.result).toEqual({ canary: "canary_1", expected: "failed", reported: "passed" });
  });
});

describe("BatchSystem: staleness", () => {
  it("withholds a group with a sample older than maxVersions, keeps it listed, and fills the step with fresh groups", async () => {
    let version = 1;
    const h = await start({ weightVersion: () => version });
    h.gates.hold("old:0", "old:1");
    const { run } = await h.batches.createRun({ name: "stale" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("old", [1, 0]), groupTask("new", [0, 1])] },
      groupSize: 2,
      groups: 1,
      staleness: { maxVersions: 0, action: "withhold" },
      dynamicSampling: { policy: "zero-variance", overProvision: 1 },
    });
    await h.driveUntil(
      async () => (await h.batches.listGroups(step.id))[0]?.members.every((m) => m.jobId !== "") === true,
    );
    version = 2;
    h.gates.open("old:0", "old:1");
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const old = groups.find((g) => g.taskId === "old");
    expect(old).toMatchObject({ state: "withheld", decision: "informative" });
    expect(old?.members.every((m) => m.isStale && m.dispatchVersion === 1)).toBe(true);
    expect(done.stats.staleWithheld).toBe(2);
    expect(done.stats.waste.stale.jobs).toBe(2);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    expect(result.groups.map((g) => g.taskId)).toEqual(["new"]);
    expect(result.groups[0]?.trajectories.every((t) => t.dispatchVersion === 2)).toBe(true);
  });

  it("regenerates stale samples when configured, and hands the group out fresh", async () => {
    let version = 5;
    const h = await start({ weightVersion: () => version });
    h.gates.hold("g:0");
    const { run } = await h.batches.createRun({ name: "regen" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("g", [1, 0])] },
      groupSize: 2,
      groups: 1,
      staleness: { maxVersions: 1, action: "regenerate" },
    });
    await h.driveUntil(
      async () => (await h.batches.listGroups(step.id))[0]?.members[1]?.status === "finished",
    );
    version = 7;
    h.gates.open("g:0");
    const done = await closed(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.staleRegenerated).toBe(2);
    const [group] = await h.batches.listGroups(step.id);
    expect(group?.members.every((m) => m.dispatchVersion === 7 && m.pastJobIds.length === 1)).toBe(true);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    expect(result.groups[0]?.trajectories.map((t) => t.dispatchVersion)).toEqual([7, 7]);
  });
});

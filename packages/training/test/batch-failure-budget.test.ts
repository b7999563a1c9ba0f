import { describe, expect, it } from "vitest";
import type { TaskCatalog } from "../src/batches/batch-system.types";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();

/** A dataset whose every task fails as infrastructure on every attempt; it cycles for ever. */
const brokenCatalog: TaskCatalog = {
  async list() {
    return [{ name: "broken", size: 3, kinds: ["grouptask"] }];
  },
  async tasks(name) {
    if (name !== "broken") return null;
    return Array.from({ length: 3 }, (_, i) => groupTask(`broken-${i}`, [1, 0], { infraFailures: [99, 99] }));
  },
};

/** A dataset whose environment is misconfigured: every job fails INIT on its own configuration. */
const misconfiguredCatalog: TaskCatalog = {
  async list() {
    return [{ name: "broken-env", size: 3, kinds: ["grouptask"] }];
  },
  async tasks(name) {
    if (name !== "broken-env") return null;
    return Array.from({ length: 3 }, (_, i) => groupTask(`env-${i}`, [1, 0], { misconfiguredSlots: [0, 1] }));
  },
};

async function jobsOfStep(h: Awaited<ReturnType<typeof start>>, stepId: string) {
  return (await h.engine.listJobs({ batchId: stepId, limit: 500 })).items;
}

/** Drives the clock until every job the step submitted has ended (each end is a job event). */
async function jobsOfStepEnded(h: Awaited<ReturnType<typeof start>>, stepId: string) {
  const ids = (await jobsOfStep(h, stepId)).map((job) => job.id);
  const { done } = await h.drive(h.engine.waitForJobs(ids, { timeoutMs: 60_000 }));
  expect(done).toBe(true);
}

describe("BatchSystem: a step's failure budget", () => {
  it("ends a step whose every job fails as infrastructure `failed`, within its default budget", async () => {
    const h = await start({ catalog: brokenCatalog });
    const { run } = await h.batches.createRun({ name: "no-sandboxes" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "dataset", dataset: "broken" },
      groupSize: 2,
      groups: 3,
    });
    const done = await closedStep(h, step.id);
    // Default budget: max(16, 2 × 3 groups × 2) = 16; the 17th failure ends the step.
    expect(done.status).toBe("failed");
    expect(done.stats.jobFailures.jobs).toBe(17);
    expect(done.failure).toMatchObject({
      reason: "failure-budget",
      jobsFailed: 17,
      budget: 16,
      commonestCause: "sandbox/run",
      commonestCauseJobs: 17,
    });
    expect(done.failure?.commonestMessage).toContain("scripted infrastructure failure");
    expect(done.failure?.message).toContain("past its budget of 16");
    expect(done.failure?.message).toContain("sandbox/run");
    // Nothing was handed out, nothing was scored: an infrastructure failure is never reward 0.
    expect(done.stats.groupsDelivered).toBe(0);
    expect(done.stats.rewardMean).toBeNull();
    const next = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 10, timeoutMs: 1_000 });
    expect(next).toMatchObject({ groups: [], done: true, step: { status: "failed" } });
    // No job of the step is left running, and none was scored.
    await jobsOfStepEnded(h, step.id);
    for (const job of await jobsOfStep(h, step.id)) {
      expect(["failed", "cancelled"]).toContain(job.status);
      expect(job.reward).toBeNull();
    }
  });

  it("cancels the step's outstanding jobs when the budget runs out", async () => {
    const h = await start();
    h.gates.hold("slow:0", "slow:1");
    const { run } = await h.batches.createRun({ name: "half-broken" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("slow", [1, 0]),
          ...Array.from({ length: 10 }, (_, i) =>
            groupTask(`broken-${i}`, [1, 0], { infraFailures: [99, 99] }),
          ),
        ],
      },
      groupSize: 2,
      groups: 1,
      maxInfraRetries: 0,
      maxJobFailures: 3,
      dynamicSampling: { policy: "zero-variance", overProvision: 3 },
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("failed");
    expect(done.failure).toMatchObject({ jobsFailed: 4, budget: 3, commonestCause: "sandbox/run" });
    const slow = (await h.batches.listGroups(step.id)).find((g) => g.taskId === "slow");
    expect(slow?.members.map((m) => m.status)).toEqual(["cancelled", "cancelled"]);
    await jobsOfStepEnded(h, step.id);
    for (const member of slow?.members ?? [])
      expect((await h.engine.getJob(member.jobId)).status).toBe("cancelled");
  });

  it("completes a step whose few infrastructure failures stay inside the budget", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "flaky" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("flaky-a", [1, 0], { infraFailures: [1, 1] }),
          groupTask("flaky-b", [0, 1], { infraFailures: [1, 0] }),
        ],
      },
      groupSize: 2,
      groups: 2,
      maxJobFailures: 3,
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.failure).toBeNull();
    expect(done.stats.jobFailures).toMatchObject({ jobs: 3, causes: { "sandbox/run": { jobs: 3 } } });
    expect(done.stats.groupsDelivered).toBe(2);
  });

  it("counts the policy's own failures (agent, tampered) as samples, never against the budget", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "policy-faults" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [groupTask("faults", [1, 1, 1], { agentFailSlots: [0], tamperedSlots: [1] })],
      },
      groupSize: 3,
      groups: 1,
      maxJobFailures: 0,
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.jobFailures.jobs).toBe(0);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    expect(result.groups[0]?.rewards).toEqual([-1, 0, 1]);
  });

  it("never re-runs a member whose own configuration failed (misconfigured), while it re-runs a sandbox failure", async () => {
    const h = await start();
    h.gates.hold("broken-env:1", "flaky:1");
    const { run } = await h.batches.createRun({ name: "misconfigured" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          groupTask("broken-env", [1, 0], { misconfiguredSlots: [0] }),
          groupTask("flaky", [0, 1], { infraFailures: [1, 0] }),
        ],
      },
      groupSize: 2,
      groups: 1,
      maxInfraRetries: 2,
      dynamicSampling: { policy: "zero-variance", overProvision: 2 },
    });
    await h.driveUntil(async () =>
      (await h.batches.listGroups(step.id)).some((g) => g.taskId === "broken-env" && g.decision === "failed"),
    );
    h.gates.open("flaky:1");
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const broken = groups.find((g) => g.taskId === "broken-env");
    expect(broken).toMatchObject({ decision: "failed", state: "dropped" });
    expect(broken?.members[0]).toMatchObject({ status: "failed", attempts: 1, pastJobIds: [] });
    expect(await h.engine.getJob(broken?.members[0]?.jobId as string)).toMatchObject({
      status: "failed",
      reward: null,
      trainable: false,
      attempts: 1,
      failure: { kind: "sandbox", stage: "init", label: "misconfigured" },
    });
    // The ordinary sandbox failure of the other group was re-run, and that group handed out.
    const flaky = groups.find((g) => g.taskId === "flaky");
    expect(flaky?.members[0]).toMatchObject({ status: "finished", attempts: 2 });
    // The engine itself started that failed job again from INIT (its maxAttempts), too.
    expect((await h.engine.getJob(flaky?.members[0]?.pastJobIds[0] as string)).attempts).toBe(3);
    expect(done.stats.infraRetries).toBe(1);
    expect(done.stats.failedGroups).toBe(1);
    // Both count against the budget, each under its own cause.
    expect(done.stats.jobFailures).toEqual({
      jobs: 2,
      causes: {
        "sandbox/init/misconfigured": {
          jobs: 1,
          lastMessage: 'MCP server "db" of slot 0 exited before its handshake',
        },
        "sandbox/run": {
          jobs: 1,
          lastMessage: expect.stringContaining("scripted infrastructure failure of slot 0"),
        },
      },
    });
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    expect(result.groups.map((g) => g.taskId)).toEqual(["flaky"]);
  });

  it("ends a step whose environment is misconfigured `failed` with its cause, spending no retry", async () => {
    const h = await start({ catalog: misconfiguredCatalog });
    const { run } = await h.batches.createRun({ name: "broken-env" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "dataset", dataset: "broken-env" },
      groupSize: 2,
      groups: 3,
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("failed");
    expect(done.stats.infraRetries).toBe(0);
    expect(done.failure).toMatchObject({
      reason: "failure-budget",
      budget: 16,
      commonestCause: "sandbox/init/misconfigured",
      commonestMessage: 'MCP server "db" of slot 0 exited before its handshake',
    });
    expect(done.failure?.message).toContain("misconfigured, not re-run: check the environment");
    await jobsOfStepEnded(h, step.id);
    for (const group of await h.batches.listGroups(step.id))
      for (const member of group.members) expect(member.pastJobIds).toEqual([]);
    for (const job of await jobsOfStep(h, step.id)) {
      expect(job.attempts).toBe(1);
      expect(job.reward).toBeNull();
    }
  });
});

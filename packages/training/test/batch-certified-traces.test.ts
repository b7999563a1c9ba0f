import { buildGatewayTraces, MemoryGatewayCallStore } from "@raas/engine";
import { FailureError } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { batchHarnessPerTest, closedStep, groupTask } from "./batch-harness";

const start = batchHarnessPerTest();

describe("BatchSystem: steps that take certified traces only", () => {
  it("drops a group whose member's harness rewrote history (uncertified), counts it as uncertified waste, and hands out a clean group instead", async () => {
    const gatewayCalls = new MemoryGatewayCallStore();
    const h = await start({ gatewayCalls });
    const { run } = await h.batches.createRun({ name: "certified-only" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [groupTask("rewrites", [1, 0], { rewriteHistorySlots: [1] }), groupTask("clean", [0, 1])],
      },
      groupSize: 2,
      groups: 1,
      requireCertifiedTraces: true,
      dynamicSampling: { policy: "zero-variance", overProvision: 2 },
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("completed");
    const groups = await h.batches.listGroups(step.id);
    const dropped = groups.find((g) => g.taskId === "rewrites");
    expect(dropped?.state).toBe("dropped");
    // Not a reward 0 and not an infrastructure failure: the members keep their real rewards.
    expect(dropped?.decision).not.toBe("failed");
    expect(done.stats).toMatchObject({ uncertifiedDropped: 1, failedGroups: 0, infraRetries: 0 });
    expect(done.stats.waste.uncertified.jobs).toBeGreaterThanOrEqual(1);
    expect(done.stats.waste.infraFailures.jobs).toBe(0);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 5, timeoutMs: 100 });
    expect(result.groups.map((g) => g.taskId)).toEqual(["clean"]);
    expect(result.groups[0]?.rewards).toEqual([0, 1]);
    // The excluded member's certificate is indeed broken where the harness rewrote the prompt.
    const uncertifiedMember = dropped?.members.find((m) => m.slot === 1);
    const traces = buildGatewayTraces(await gatewayCalls.listCalls(uncertifiedMember?.jobId ?? ""));
    expect(traces.certificate.isCertified).toBe(false);
    expect(traces.certificate.breaks[0]).toMatchObject({ position: 1, expectedId: 2, actualId: 9 });
  });

  it("hands out the same rewriting group when the step does not ask for certified traces", async () => {
    const h = await start({ gatewayCalls: new MemoryGatewayCallStore() });
    const { run } = await h.batches.createRun({ name: "any-traces" });
    const { step } = await h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("rewrites", [1, 0], { rewriteHistorySlots: [1] })] },
      groupSize: 2,
      groups: 1,
    });
    const done = await closedStep(h, step.id);
    expect(done.status).toBe("completed");
    expect(done.stats.uncertifiedDropped).toBe(0);
    const result = await h.batches.nextGroups(step.id, { afterSeq: 0, limit: 1, timeoutMs: 100 });
    expect(result.groups[0]?.taskId).toBe("rewrites");
  });

  it("refuses such a step (400) where no certificates can be read", async () => {
    const h = await start();
    const { run } = await h.batches.createRun({ name: "no-certifier" });
    const creating = h.batches.createStep({
      runId: run.id,
      tasks: { type: "inline", tasks: [groupTask("t", [1, 0])] },
      groupSize: 2,
      groups: 1,
      requireCertifiedTraces: true,
    });
    await expect(creating).rejects.toBeInstanceOf(FailureError);
    await expect(creating).rejects.toMatchObject({ failure: { code: "VALIDATION_FAILED" } });
  });
});

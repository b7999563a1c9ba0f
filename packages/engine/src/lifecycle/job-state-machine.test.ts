import { describe, expect, it } from "vitest";
import { createJobRecord } from "./job-factory";
import { applyTransition, canTransition, InvalidTransitionError, isTrainable } from "./job-state-machine";

const base = () => createJobRecord({ kind: "sleep", payload: {}, priority: 0, policyId: "default" }, 1_000);

describe("job state machine", () => {
  it("walks the happy path and counts time per stage and in queues", () => {
    let job = base();
    job = applyTransition(job, { type: "enqueue" }, { nowMs: 1_000, stateSinceMs: 1_000 });
    expect([job.status, job.stage]).toEqual(["queued", "init"]);
    job = applyTransition(job, { type: "activate" }, { nowMs: 1_300, stateSinceMs: 1_000 });
    job = applyTransition(job, { type: "enqueue" }, { nowMs: 1_350, stateSinceMs: 1_300 });
    expect([job.status, job.stage]).toEqual(["queued", "run"]);
    job = applyTransition(job, { type: "activate" }, { nowMs: 1_360, stateSinceMs: 1_350 });
    job = applyTransition(job, { type: "enqueue" }, { nowMs: 1_560, stateSinceMs: 1_360 });
    job = applyTransition(job, { type: "activate" }, { nowMs: 1_600, stateSinceMs: 1_560 });
    job = applyTransition(
      job,
      { type: "complete", reward: 1, result: { ok: true } },
      { nowMs: 1_700, stateSinceMs: 1_600 },
    );
    expect(job.status).toBe("completed");
    expect(job.trainable).toBe(true);
    expect(job.reward).toBe(1);
    expect(job.finishedAtMs).toBe(1_700);
    expect(job.timings).toEqual({ queueMs: 300 + 10 + 40, initMs: 50, runMs: 200, evalMs: 100 });
  });

  it("records failure kind and stage; only agent failures are trainable", () => {
    let job = base();
    job = applyTransition(job, { type: "enqueue" }, { nowMs: 1_000, stateSinceMs: 1_000 });
    job = applyTransition(job, { type: "activate" }, { nowMs: 1_000, stateSinceMs: 1_000 });
    const sandbox = applyTransition(
      job,
      { type: "fail", kind: "sandbox", message: "boom" },
      { nowMs: 1_100, stateSinceMs: 1_000 },
    );
    expect(sandbox.failure).toEqual({ kind: "sandbox", stage: "init", message: "boom" });
    expect(sandbox.trainable).toBe(false);
    expect(sandbox.reward).toBeNull();
    const agent = applyTransition(
      job,
      { type: "fail", kind: "agent", message: "bad tool call" },
      { nowMs: 1_100, stateSinceMs: 1_000 },
    );
    expect(agent.trainable).toBe(true);
    expect(agent.reward).toBe(0);
    const graded = applyTransition(
      job,
      { type: "fail", kind: "agent", message: "memory limit", failureReward: -0.5 },
      { nowMs: 1_100, stateSinceMs: 1_000 },
    );
    expect([graded.trainable, graded.reward, graded.failure?.message]).toEqual([true, -0.5, "memory limit"]);
    const inference = applyTransition(
      job,
      { type: "fail", kind: "inference", message: "unreachable", failureReward: -0.5 },
      { nowMs: 1_100, stateSinceMs: 1_000 },
    );
    expect([inference.trainable, inference.reward]).toEqual([false, null]);
    const tampered = applyTransition(
      job,
      {
        type: "fail",
        kind: "agent",
        message: "canary c1 lied",
        failureReward: -0.5,
        label: "tampered",
        result: { canary: "c1" },
      },
      { nowMs: 1_100, stateSinceMs: 1_000 },
    );
    expect(tampered.failure).toEqual({
      kind: "agent",
      stage: "init",
      message: "canary c1 lied",
      label: "tampered",
    });
    // A voided grade is 0 whatever the handler's failure reward; the report is kept as the result.
    expect([tampered.trainable, tampered.reward, tampered.result]).toEqual([true, 0, { canary: "c1" }]);
    expect(agent.failure).not.toHaveProperty("label");
    expect(agent.result).toBeNull();
  });

  it("rejects impossible transitions", () => {
    const job = base();
    expect(canTransition(job, { type: "activate" })).toBe(false);
    expect(canTransition(job, { type: "complete", reward: 1, result: null })).toBe(false);
    expect(() =>
      applyTransition(job, { type: "fail", kind: "eval", message: "x" }, { nowMs: 1, stateSinceMs: 1 }),
    ).toThrow(InvalidTransitionError);
    const done = { ...job, status: "completed" as const, stage: "eval" as const };
    expect(canTransition(done, { type: "cancel", message: "late" })).toBe(false);
    expect(canTransition(done, { type: "restart" })).toBe(false);
  });

  it("cancels from any non-terminal state and restarts from INIT with a new attempt", () => {
    let job = applyTransition(base(), { type: "enqueue" }, { nowMs: 1_000, stateSinceMs: 1_000 });
    const cancelled = applyTransition(
      job,
      { type: "cancel", message: "by user" },
      { nowMs: 1_010, stateSinceMs: 1_000 },
    );
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.failure?.kind).toBe("cancelled");
    expect(cancelled.trainable).toBe(false);
    job = applyTransition(job, { type: "activate" }, { nowMs: 1_000, stateSinceMs: 1_000 });
    const restarted = applyTransition(job, { type: "restart" }, { nowMs: 1_000, stateSinceMs: 1_000 });
    expect([restarted.status, restarted.stage, restarted.attempts]).toEqual(["queued", "init", 2]);
  });

  it("derives trainable from status and kind", () => {
    expect(isTrainable("completed", null)).toBe(true);
    expect(isTrainable("failed", "agent")).toBe(true);
    for (const kind of ["timeout", "sandbox", "inference", "eval"] as const)
      expect(isTrainable("failed", kind)).toBe(false);
    expect(isTrainable("cancelled", "cancelled")).toBe(false);
    expect(isTrainable("active", null)).toBeNull();
  });
});

import { systemClock } from "@raas/engine";
import type { TPolicyState } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { MemoryBatchStore } from "../memory/memory-batch-store";
import { PolicyControl } from "./policy-control";

function recordingSink(): { states: TPolicyState[]; applyPolicy(state: TPolicyState): void } {
  const states: TPolicyState[] = [];
  return { states, applyPolicy: (state) => void states.push(state) };
}

describe("PolicyControl with several policies", () => {
  it("keeps each policy's weight version and pause apart, stored and applied per policy", async () => {
    const store = new MemoryBatchStore();
    const sink = recordingSink();
    const control = new PolicyControl({ store, sinks: [sink], clock: { ...systemClock, now: () => 7 } });
    await control.start();
    expect(control.list().map((state) => state.policyId)).toEqual(["default"]);

    await control.setWeightVersion(0, "run-a");
    await control.setWeightVersion(20, "run-b");
    await control.pause({ mode: "wait", policyId: "run-b" });
    expect(control.weightVersionOf("run-a")).toBe(0);
    expect(control.stateOf("run-a").isPaused).toBe(false);
    expect(control.stateOf("run-b")).toMatchObject({ weightVersion: 20, isPaused: true, pausedAtMs: 7 });
    expect(control.state).toMatchObject({ policyId: "default", weightVersion: null, isPaused: false });
    // Every change reached the sinks under its own policy id.
    expect(sink.states.map((state) => [state.policyId, state.weightVersion, state.isPaused])).toEqual([
      ["default", null, false],
      ["run-a", 0, false],
      ["run-b", 20, false],
      ["run-b", 20, true],
    ]);
    // Versions only grow per policy: run-b's 20 does not stop run-a's 1.
    await expect(control.setWeightVersion(19, "run-b")).rejects.toMatchObject({
      failure: { code: "CONFLICT" },
    });
    expect((await control.setWeightVersion(1, "run-a")).weightVersion).toBe(1);

    // A restarted control reads every policy back.
    const restarted = new PolicyControl({ store, sinks: [] });
    await restarted.start();
    expect(restarted.list().map((state) => [state.policyId, state.weightVersion, state.isPaused])).toEqual([
      ["default", null, false],
      ["run-a", 1, false],
      ["run-b", 20, true],
    ]);
  });

  it("gives an unowned policy to its first claimant and keeps that owner", async () => {
    const control = new PolicyControl({ store: new MemoryBatchStore(), sinks: [] });
    await control.start();
    expect((await control.claim("shared", "token:aaaa")).ownerId).toBe("token:aaaa");
    expect((await control.claim("shared", "token:bbbb")).ownerId).toBe("token:aaaa");
    expect((await control.setWeightVersion(3, "shared")).ownerId).toBe("token:aaaa");
    await expect(control.setWeightVersion(1, "bad id with spaces")).rejects.toMatchObject({
      failure: {
        code: "VALIDATION_FAILED",
      },
    });
  });
});

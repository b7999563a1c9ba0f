import { describe, expect, it } from "vitest";
import {
  breakRegionCounts,
  gatewayOverheadByCallIndex,
  summarizeArm,
  type TaskSample,
  turnChainCount,
} from "./harness-summary";

function task(overrides: Partial<TaskSample>): TaskSample {
  return {
    taskId: "t",
    failure: null,
    reward: 1,
    wallMs: 2_000,
    runMs: 1_000,
    calls: [
      { promptTokens: 100, sampledTokens: 10, gatewayOverheadMs: 1 },
      { promptTokens: 300, sampledTokens: 30, gatewayOverheadMs: 3 },
    ],
    chains: { isCertified: true, chainCount: 1, splitChains: 0, breakRegions: [] },
    ...overrides,
  };
}

describe("turnChainCount", () => {
  it("accepts prompts that repeat the turn before and its sampled ids", () => {
    const turns = [
      { promptIds: [1, 2], responseIds: [3] },
      { promptIds: [1, 2, 3, 4], responseIds: [5, 6] },
      { promptIds: [1, 2, 3, 4, 5, 6, 7], responseIds: [8] },
    ];
    expect(turnChainCount(turns)).toBe(1);
    expect(turnChainCount([])).toBe(0);
  });

  it("starts a chain at a prompt that changed a sampled id or dropped history", () => {
    expect(
      turnChainCount([
        { promptIds: [1, 2], responseIds: [3] },
        { promptIds: [1, 2, 9, 4], responseIds: [5] },
      ]),
    ).toBe(2);
    expect(
      turnChainCount([
        { promptIds: [1, 2], responseIds: [3] },
        { promptIds: [1, 2], responseIds: [5] },
        { promptIds: [1, 2, 5, 7], responseIds: [8] },
      ]),
    ).toBe(2);
  });
});

describe("summarizeArm", () => {
  it("gives per-call and per-task figures, split chains and shares by jobs and by sampled tokens", () => {
    const split = task({
      taskId: "split",
      wallMs: 6_000,
      runMs: 5_000,
      calls: [{ promptTokens: 200, sampledTokens: 60, gatewayOverheadMs: 2 }],
      chains: {
        isCertified: false,
        chainCount: 3,
        splitChains: 2,
        breakRegions: ["response", "response"],
      },
    });
    const row = summarizeArm("cli", [task({}), split, task({ taskId: "wrong", reward: 0 })]);
    expect(row).toMatchObject({
      name: "cli",
      tasks: 3,
      resolved: 2,
      failures: 0,
      callsPerTask: 1.67,
      gatewayOverheadP50Ms: 2,
      promptTokensPerCall: 200,
      certifiedJobShare: 0.67,
      // 40 + 40 sampled tokens certified of 140.
      certifiedTokenShare: 0.57,
      splitChainRate: 0.33,
      splitChainsPerTask: 0.67,
      chainsPerTask: 1.67,
      wallP50S: 2,
      runP50S: 1,
    });
    expect(breakRegionCounts([task({}), split])).toEqual({ response: 2 });
    // First calls 1, 2, 1 → 1; second calls 3, 3 → 3.
    expect(gatewayOverheadByCallIndex([task({}), split, task({})])).toEqual([1, 3]);
  });

  it("leaves failed jobs out of the figures and calls without the gateway out of its overhead", () => {
    const builtIn = task({
      calls: [{ promptTokens: 50, sampledTokens: 5, gatewayOverheadMs: null }],
    });
    const failed = task({ failure: "timeout", reward: null, wallMs: 300_000, calls: [] });
    const row = summarizeArm("built-in", [builtIn, failed]);
    expect(row).toMatchObject({
      tasks: 2,
      resolved: 1,
      failures: 1,
      callsPerTask: 1,
      gatewayOverheadP50Ms: null,
      promptTokensPerCall: 50,
      certifiedJobShare: 1,
      wallP50S: 2,
    });
  });

  it("has no figures, rather than zeros, when every job failed", () => {
    const row = summarizeArm("broken", [task({ failure: "sandbox", reward: null })]);
    expect(row).toMatchObject({ tasks: 1, failures: 1, callsPerTask: null, certifiedJobShare: null });
  });
});

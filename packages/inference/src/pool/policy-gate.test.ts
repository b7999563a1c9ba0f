import { initialPolicyState, type TPolicyState } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { PolicyGate } from "./policy-gate";

const policy = (change: Partial<TPolicyState>): TPolicyState => ({
  ...initialPolicyState("default"),
  ...change,
});

describe("PolicyGate.mayInterrupt", () => {
  it("turns on for good with a weight version, an owner or an abort-and-continue pause; not with a wait pause", () => {
    const gate = new PolicyGate();
    expect(gate.mayInterrupt).toBe(false);
    gate.apply(policy({ isPaused: true, pauseMode: "wait" }));
    gate.apply(policy({}));
    expect(gate.mayInterrupt).toBe(false);
    gate.apply(policy({ isPaused: true, pauseMode: "abort-and-continue" }));
    gate.apply(policy({}));
    expect(gate.mayInterrupt).toBe(true);
    for (const change of [{ weightVersion: 0 }, { ownerId: "token:0123456789abcdef" }]) {
      const trained = new PolicyGate();
      trained.apply(policy(change));
      expect(trained.mayInterrupt).toBe(true);
    }
  });
});

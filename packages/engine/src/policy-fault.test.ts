import { stageFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { MAX_POLICY_REASON_CHARS, policyFaultOf } from "./policy-fault";

const marked = (message: string, marks: Record<string, unknown>) => Object.assign(new Error(message), marks);

describe("policyFaultOf", () => {
  it("reads the sandbox's marks from the error", () => {
    const error = marked("execution server exited", {
      causedByPolicy: true,
      policyReason: "the sandbox's wall-time limit of 600000 ms ran out",
    });
    expect(policyFaultOf(error)).toEqual({ reason: "the sandbox's wall-time limit of 600000 ms ran out" });
  });

  it("finds a mark along the cause chain (wrapped by a toolbox or guard)", () => {
    const inner = marked("killed", { causedByPolicy: true, policyReason: "memory limit" });
    const wrapped = stageFailure("sandbox", "sandbox tool bash failed: killed", {
      cause: new Error("outer", { cause: inner }),
    });
    expect(policyFaultOf(wrapped)).toEqual({ reason: "memory limit" });
  });

  it("falls back to the error's message when the reason is missing or blank", () => {
    expect(policyFaultOf(marked("pids limit reached", { causedByPolicy: true }))).toEqual({
      reason: "pids limit reached",
    });
    expect(policyFaultOf(marked("", { causedByPolicy: true, policyReason: "  " }))?.reason).toBe(
      "the policy's own action ended the tool call",
    );
  });

  it("takes only exactly `true` as the mark; everything else is not a policy fault", () => {
    expect(policyFaultOf(new Error("socket closed"))).toBeNull();
    expect(policyFaultOf(marked("x", { causedByPolicy: "true", policyReason: "r" }))).toBeNull();
    expect(policyFaultOf(marked("x", { causedByPolicy: 1, policyReason: "r" }))).toBeNull();
    expect(policyFaultOf(null)).toBeNull();
    expect(policyFaultOf("causedByPolicy")).toBeNull();
    expect(policyFaultOf({ policyReason: "memory limit" })).toBeNull();
  });

  it("stops on cyclic cause chains and clips long reasons", () => {
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(policyFaultOf(a)).toBeNull();
    const long = policyFaultOf(marked("x", { causedByPolicy: true, policyReason: "y".repeat(10_000) }));
    expect(long?.reason.length).toBeLessThanOrEqual(MAX_POLICY_REASON_CHARS);
    expect(long?.reason).toContain("[cut]");
  });
});

import { abortFailure, callerConfigFailure, policyFailure, sandboxFailure, stageFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import {
  classifyFailure,
  DEFAULT_FAILURE_REWARD,
  failureRewardOf,
  isRestartedFromInit,
} from "./failure-classifier";

const live = () => new AbortController().signal;
const abortedWith = (cause: "timeout" | "cancelled") => {
  const controller = new AbortController();
  controller.abort(abortFailure(cause, cause));
  return controller.signal;
};

describe("classifyFailure", () => {
  it("uses the stage failure's kind", () => {
    const failure = classifyFailure({
      stage: "run",
      error: policyFailure("loop"),
      signal: live(),
      timeoutMs: 1,
    });
    expect(failure).toEqual({ kind: "agent", message: "loop" });
  });

  it("passes a stage failure's label and report through", () => {
    const report = { canaries: [{ name: "c1", expected: "failed", reported: "passed" }] };
    const error = policyFailure("canary c1 lied", { label: "tampered", result: report });
    expect(classifyFailure({ stage: "eval", error, signal: live(), timeoutMs: 1 })).toEqual({
      kind: "agent",
      message: "canary c1 lied",
      label: "tampered",
      result: report,
    });
    // A timeout wins over the label: the grader did not finish within its budget.
    expect(classifyFailure({ stage: "eval", error, signal: abortedWith("timeout"), timeoutMs: 9 })).toEqual({
      kind: "timeout",
      message: "eval stage exceeded its time budget of 9 ms",
    });
  });

  it("lets timeout and cancel win over the error thrown while aborting", () => {
    const error = stageFailure("sandbox", "socket closed");
    expect(classifyFailure({ stage: "run", error, signal: abortedWith("timeout"), timeoutMs: 500 })).toEqual({
      kind: "timeout",
      message: "run stage exceeded its time budget of 500 ms",
    });
    expect(
      classifyFailure({ stage: "eval", error, signal: abortedWith("cancelled"), timeoutMs: 1 }).kind,
    ).toBe("cancelled");
  });

  it("never classifies an unexplained error as agent (it would be trained on as reward 0)", () => {
    expect(classifyFailure({ stage: "init", error: new Error("x"), signal: live(), timeoutMs: 1 }).kind).toBe(
      "sandbox",
    );
    expect(
      classifyFailure({ stage: "run", error: new TypeError("y"), signal: live(), timeoutMs: 1 }).kind,
    ).toBe("sandbox");
    expect(classifyFailure({ stage: "eval", error: "z", signal: live(), timeoutMs: 1 })).toEqual({
      kind: "eval",
      message: "z",
    });
  });
});

describe("failureRewardOf", () => {
  it("gives the policy's own failures the handler's failure reward, default 0", () => {
    expect(DEFAULT_FAILURE_REWARD).toBe(0);
    expect(failureRewardOf("agent", undefined)).toBe(0);
    expect(failureRewardOf("agent", -1)).toBe(-1);
  });

  it("never gives infrastructure failures, timeouts or cancels a reward (not even the handler's)", () => {
    for (const kind of ["timeout", "sandbox", "inference", "eval", "cancelled"] as const) {
      expect(failureRewardOf(kind, -1)).toBeNull();
      expect(failureRewardOf(kind, undefined)).toBeNull();
    }
  });
});

describe("isRestartedFromInit", () => {
  const classify = (error: unknown) => classifyFailure({ stage: "run", error, signal: live(), timeoutMs: 1 });

  it("starts an infrastructure sandbox failure again, wrapped or not", () => {
    expect(isRestartedFromInit(classify(stageFailure("sandbox", "host failed")))).toBe(true);
    expect(isRestartedFromInit(classify(sandboxFailure("start_failed", "handshake timed out")))).toBe(true);
  });

  it("fails the caller's configuration as it is: a sandbox failure, reward null, not retried", () => {
    const failure = classify(callerConfigFailure('MCP server "db" exited with code 127'));
    expect(failure).toEqual({
      kind: "sandbox",
      message: 'MCP server "db" exited with code 127',
      label: "misconfigured",
    });
    expect(isRestartedFromInit(failure)).toBe(false);
    expect(failureRewardOf(failure.kind, 0.5, failure.label)).toBeNull();
    // Under a wrapper it is still the caller's (the toolbox wraps what the provider throws).
    const wrapped = new Error("starting the MCP servers failed", {
      cause: callerConfigFailure("misconfigured"),
    });
    expect(classify(wrapped)).toMatchObject({ kind: "sandbox", label: "misconfigured" });
    expect(isRestartedFromInit(classify(wrapped))).toBe(false);
  });

  it("fails every other kind as it is", () => {
    for (const kind of ["eval", "inference", "timeout"] as const)
      expect(isRestartedFromInit(classify(stageFailure(kind, "x")))).toBe(false);
    expect(isRestartedFromInit(classify(policyFailure("x")))).toBe(false);
  });
});

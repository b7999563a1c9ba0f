import { describe, expect, it } from "vitest";
import {
  abortFailure,
  blamePolicy,
  callerConfigFailure,
  FailureError,
  failureOf,
  isStageFailureData,
  MAX_POLICY_REASON_CHARS,
  policyFailure,
  requestFailure,
  sandboxFailure,
  stageFailure,
} from "./failure";

describe("stage failures", () => {
  it("blame the policy for `agent` and infrastructure for every other kind", () => {
    expect(policyFailure("ran out of turns").failure).toEqual({
      kind: "agent",
      cause: "policy",
      message: "ran out of turns",
      label: null,
    });
    for (const kind of ["timeout", "sandbox", "inference", "eval"] as const)
      expect(stageFailure(kind, "x").failure.cause).toBe("infrastructure");
  });

  it("keep a label and a report only on the policy's failure", () => {
    const report = { canary: "test_canary_7" };
    const voided = policyFailure("grade void", { label: "tampered", result: report });
    expect(voided.failure).toMatchObject({ kind: "agent", label: "tampered", result: report });
    expect(() => stageFailure("eval", "grader broke", { label: "tampered" })).toThrow(TypeError);
    // `misconfigured` is the engine's word for a callerConfigFailure, never a handler's label.
    const label = "misconfigured" as "tampered";
    expect(() => policyFailure("x", { label })).toThrow(/comes from callerConfigFailure/);
  });

  it("keep the underlying error as the Error's cause and the message as the Error's", () => {
    const underlying = new Error("exit 137");
    const error = stageFailure("sandbox", "sandbox command ls failed: exit 137", { cause: underlying });
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("sandbox command ls failed: exit 137");
    expect(error.cause).toBe(underlying);
  });

  it("blame the caller for the job's own configuration, as a sandbox failure no one trains on", () => {
    const underlying = new Error("exit 127");
    const error = callerConfigFailure('MCP server "db" is misconfigured', { cause: underlying });
    expect(error.failure).toEqual({
      kind: "sandbox",
      cause: "caller",
      message: 'MCP server "db" is misconfigured',
      label: null,
    });
    expect(error.cause).toBe(underlying);
    expect(isStageFailureData(error.failure)).toBe(true);
    expect(failureOf(error, "policy")).toBeNull();
  });

  it("are told apart from the other families", () => {
    expect(isStageFailureData(stageFailure("inference", "down").failure)).toBe(true);
    expect(isStageFailureData(sandboxFailure("crashed", "gone").failure)).toBe(false);
    expect(isStageFailureData(requestFailure("NOT_FOUND", "no job").failure)).toBe(false);
    expect(isStageFailureData(abortFailure("timeout", "late").failure)).toBe(false);
    expect(isStageFailureData(null)).toBe(false);
  });
});

describe("request failures", () => {
  it("blame the caller for a mistake and infrastructure for an outage, a bug or a full house", () => {
    expect(requestFailure("VALIDATION_FAILED", "bad").failure.cause).toBe("caller");
    expect(requestFailure("NOT_FOUND", "no").failure.cause).toBe("caller");
    expect(requestFailure("UNAVAILABLE", "down").failure.cause).toBe("infrastructure");
    expect(requestFailure("INTERNAL", "bug").failure.cause).toBe("infrastructure");
    expect(requestFailure("TOO_MANY_REQUESTS", "full").failure.cause).toBe("infrastructure");
  });

  it("carry details only when given", () => {
    expect(requestFailure("CONFLICT", "taken").failure).toEqual({
      kind: "request",
      cause: "caller",
      code: "CONFLICT",
      message: "taken",
    });
    expect(requestFailure("CONFLICT", "taken", { details: { jobKey: "k" } }).failure).toMatchObject({
      details: { jobKey: "k" },
    });
  });
});

describe("sandbox failures", () => {
  it("are infrastructure until the policy is blamed, and blaming keeps message and cause", () => {
    const underlying = new Error("oom");
    const error = sandboxFailure("crashed", "the sandbox crashed", { cause: underlying });
    expect(error.failure.cause).toBe("infrastructure");
    const blamed = blamePolicy(error, "the agent's call used up the memory limit");
    expect(blamed.failure).toMatchObject({
      kind: "sandbox-error",
      cause: "policy",
      reason: "crashed",
      policyReason: "the agent's call used up the memory limit",
    });
    expect(blamed.message).toBe("the sandbox crashed");
    expect(blamed.cause).toBe(underlying);
    expect(error.failure.cause).toBe("infrastructure");
  });

  it("blaming clips a long reason to its head and tail, and falls back to the message when blank", () => {
    const long = blamePolicy(sandboxFailure("closed", "x"), "y".repeat(10_000)).failure.policyReason;
    expect(long?.length).toBeLessThanOrEqual(MAX_POLICY_REASON_CHARS);
    expect(long).toContain("[cut]");
    expect(blamePolicy(sandboxFailure("crashed", "pids limit reached"), "  ").failure.policyReason).toBe(
      "pids limit reached",
    );
  });
});

describe("abort failures", () => {
  it("blame the caller for a cancel and nobody's policy for the rest", () => {
    expect(abortFailure("cancelled", "cancelled by request").failure).toEqual({
      kind: "aborted",
      cause: "caller",
      abort: "cancelled",
      message: "cancelled by request",
    });
    for (const abort of ["timeout", "shutdown", "preempted"] as const)
      expect(abortFailure(abort, abort).failure.cause).toBe("infrastructure");
  });

  it("are read from a signal's reason", () => {
    const controller = new AbortController();
    expect(failureOf(controller.signal.reason)).toBeNull();
    controller.abort(abortFailure("preempted", "higher-priority work"));
    expect(failureOf(controller.signal.reason)).toMatchObject({ kind: "aborted", abort: "preempted" });
  });
});

describe("failureOf", () => {
  it("reads an error's own failure", () => {
    const error = requestFailure("NOT_FOUND", "job j1 not found");
    expect(failureOf(error)).toBe(error.failure);
  });

  it("finds a failure along the cause chain", () => {
    const inner = sandboxFailure("closed", "closed");
    const wrapped = new Error("tool failed", { cause: new Error("exec failed", { cause: inner }) });
    expect(failureOf(wrapped)).toBe(inner.failure);
  });

  it("finds the policy's failure under an infrastructure wrapper when asked for the policy's", () => {
    const marked = blamePolicy(sandboxFailure("crashed", "died"), "killed its tools");
    const wrapped = stageFailure("sandbox", "sandbox tool bash failed: died", { cause: marked });
    expect(failureOf(wrapped)?.cause).toBe("infrastructure");
    expect(failureOf(wrapped, "policy")).toBe(marked.failure);
  });

  it("is null for what carries no failure: plain errors, strings, look-alikes, undefined", () => {
    expect(failureOf(new Error("x"))).toBeNull();
    expect(failureOf("boom")).toBeNull();
    expect(failureOf(undefined)).toBeNull();
    expect(failureOf({ failure: { kind: "agent", cause: "policy" } })).toBeNull();
    expect(failureOf(Object.assign(new Error("x"), { causedByPolicy: true }))).toBeNull();
    expect(failureOf(sandboxFailure("crashed", "x"), "policy")).toBeNull();
  });

  it("stops after eight links, so a cyclic chain ends", () => {
    const deep = new FailureError({ kind: "aborted", cause: "caller", abort: "cancelled", message: "c" });
    let chain: unknown = deep;
    for (let i = 0; i < 8; i += 1) chain = new Error(`wrap ${i}`, { cause: chain });
    expect(failureOf(chain)).toBeNull();
    const cyclic = new Error("a") as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(failureOf(cyclic)).toBeNull();
  });
});

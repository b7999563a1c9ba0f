import { describe, expect, it } from "vitest";
import { StageFailure } from "../stage-failure";
import { classifyToolError } from "./tool-call-failure";

describe("classifyToolError", () => {
  it("makes a marked error the policy's own (agent) failure with the reason", () => {
    const error = Object.assign(new Error("execution server gone"), {
      causedByPolicy: true,
      policyReason: "the sandbox crashed during the agent's bash call: exit 137",
    });
    const failure = classifyToolError("bash", error);
    expect(failure.kind).toBe("agent");
    expect(failure.message).toBe(
      "policy fault in tool bash: the sandbox crashed during the agent's bash call: exit 137",
    );
    expect(failure.cause).toBe(error);
  });

  it("keeps an unmarked error infrastructure (sandbox)", () => {
    const failure = classifyToolError("python", new Error("connect ECONNREFUSED /tmp/sb/exec.sock"));
    expect([failure.kind, failure.message]).toEqual([
      "sandbox",
      "tool python failed: connect ECONNREFUSED /tmp/sb/exec.sock",
    ]);
    expect(classifyToolError("bash", "boom").message).toBe("tool bash failed: boom");
  });

  it("passes an unmarked StageFailure through, and a mark wins over a wrapping sandbox failure", () => {
    const inference = new StageFailure("inference", "backend down");
    expect(classifyToolError("bash", inference)).toBe(inference);
    const wrapped = new StageFailure("sandbox", "sandbox tool bash failed", {
      cause: Object.assign(new Error("oom"), { causedByPolicy: true, policyReason: "memory limit" }),
    });
    expect(classifyToolError("bash", wrapped).kind).toBe("agent");
  });
});

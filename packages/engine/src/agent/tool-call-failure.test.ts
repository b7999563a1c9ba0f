import { blamePolicy, FailureError, failureOf, sandboxFailure, stageFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { classifyToolError } from "./tool-call-failure";

describe("classifyToolError", () => {
  it("makes a marked error the policy's own (agent) failure with the reason", () => {
    const error = blamePolicy(
      sandboxFailure("crashed", "execution server gone"),
      "the sandbox crashed during the agent's bash call: exit 137",
    );
    const thrown = classifyToolError("bash", error);
    expect(failureOf(thrown)?.kind).toBe("agent");
    expect(failureOf(thrown)?.message).toBe(
      "policy fault in tool bash: the sandbox crashed during the agent's bash call: exit 137",
    );
    expect(thrown).toBeInstanceOf(FailureError);
    expect((thrown as FailureError).cause).toBe(error);
  });

  it("keeps an unmarked error infrastructure (sandbox)", () => {
    const failure = failureOf(
      classifyToolError("python", new Error("connect ECONNREFUSED /tmp/sb/exec.sock")),
    );
    expect([failure?.kind, failure?.message]).toEqual([
      "sandbox",
      "tool python failed: connect ECONNREFUSED /tmp/sb/exec.sock",
    ]);
    expect(failureOf(classifyToolError("bash", "boom"))?.message).toBe("tool bash failed: boom");
  });

  it("passes an unmarked stage failure through, and a mark wins over a wrapping sandbox failure", () => {
    const inference = stageFailure("inference", "backend down");
    expect(classifyToolError("bash", inference)).toBe(inference);
    const wrapped = stageFailure("sandbox", "sandbox tool bash failed", {
      cause: blamePolicy(sandboxFailure("crashed", "oom"), "memory limit"),
    });
    expect(failureOf(classifyToolError("bash", wrapped))?.kind).toBe("agent");
  });
});

import type { Sandbox } from "@raas/engine";
import { blamePolicy, failureOf, sandboxFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { execPolicyCommand } from "./policy-exec";

function failingSandbox(error: unknown): Sandbox {
  return { exec: () => Promise.reject(error) } as unknown as Sandbox;
}

async function thrownBy(error: unknown, signal = new AbortController().signal) {
  return execPolicyCommand(failingSandbox(error), ["harness"], { signal }).then(
    () => {
      throw new Error("expected a failure");
    },
    (thrown: unknown) => thrown,
  );
}

describe("execPolicyCommand", () => {
  it("fails as the policy's (agent) when the sandbox blamed the policy", async () => {
    const marked = blamePolicy(
      sandboxFailure("crashed", "sandbox closed"),
      "the sandbox's workspace quota of 8192 MiB was exceeded",
    );
    const failure = await thrownBy(marked);
    expect(failureOf(failure)?.kind).toBe("agent");
    expect((failure as Error).message).toBe("the sandbox's workspace quota of 8192 MiB was exceeded");
  });

  it("keeps every other sandbox error infrastructure (sandbox)", async () => {
    const failure = await thrownBy(new Error("the launcher died"));
    expect(failureOf(failure)?.kind).toBe("sandbox");
    expect((failure as Error).message).toMatch(/the launcher died/);
  });

  it("rethrows the abort reason when the stage was aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled");
    controller.abort(reason);
    const marked = blamePolicy(sandboxFailure("crashed", "x"), "x");
    expect(await thrownBy(marked, controller.signal)).toBe(reason);
  });
});

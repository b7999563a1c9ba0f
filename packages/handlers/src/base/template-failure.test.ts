import { policyFailure, stageFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { templateFailureAction } from "./template-failure";

describe("templateFailureAction", () => {
  it("shares the task's own failures with every member of the group", () => {
    expect(templateFailureAction(stageFailure("eval", "setup command `exit 3` exited with 3"))).toBe("share");
    expect(templateFailureAction(policyFailure("policy fault"))).toBe("share");
  });

  it("retries infrastructure failures, unclassified errors and aborts", () => {
    expect(templateFailureAction(stageFailure("sandbox", "starting the sandbox failed"))).toBe("retry");
    expect(templateFailureAction(stageFailure("timeout", "checkout timed out"))).toBe("retry");
    expect(templateFailureAction(stageFailure("inference", "backend down"))).toBe("retry");
    expect(templateFailureAction(new Error("ENOSPC"))).toBe("retry");
    expect(templateFailureAction(new DOMException("aborted", "AbortError"))).toBe("retry");
    expect(templateFailureAction(undefined)).toBe("retry");
  });
});

import { StageFailure } from "@raas/engine";
import { describe, expect, it } from "vitest";
import { templateFailureAction } from "./template-failure";

describe("templateFailureAction", () => {
  it("shares the task's own failures with every member of the group", () => {
    expect(templateFailureAction(new StageFailure("eval", "setup command `exit 3` exited with 3"))).toBe(
      "share",
    );
    expect(templateFailureAction(new StageFailure("agent", "policy fault"))).toBe("share");
  });

  it("retries infrastructure failures, unclassified errors and aborts", () => {
    expect(templateFailureAction(new StageFailure("sandbox", "starting the sandbox failed"))).toBe("retry");
    expect(templateFailureAction(new StageFailure("timeout", "checkout timed out"))).toBe("retry");
    expect(templateFailureAction(new StageFailure("inference", "backend down"))).toBe("retry");
    expect(templateFailureAction(new Error("ENOSPC"))).toBe("retry");
    expect(templateFailureAction(new DOMException("aborted", "AbortError"))).toBe("retry");
    expect(templateFailureAction(undefined)).toBe("retry");
  });
});

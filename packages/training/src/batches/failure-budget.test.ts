import { emptyStepStats } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { StepRecord } from "../ports/batch-store.port";
import {
  countJobFailure,
  isOverFailureBudget,
  jobFailureCause,
  stepFailureBudget,
  stepFailureOf,
} from "./failure-budget";

function step(groups: number, groupSize: number, maxJobFailures?: number) {
  return {
    id: "stp_1",
    status: "running",
    groups,
    groupSize,
    stats: emptyStepStats(),
    request: maxJobFailures === undefined ? {} : { maxJobFailures },
  } as unknown as StepRecord;
}

describe("failure budget", () => {
  it("defaults to twice the step's samples, at least 16, unless the request sets one", () => {
    expect(stepFailureBudget(step(1, 1))).toBe(16);
    expect(stepFailureBudget(step(8, 4))).toBe(64);
    expect(stepFailureBudget(step(8, 4, 0))).toBe(0);
    expect(stepFailureBudget(step(8, 4, 5))).toBe(5);
  });

  it("is passed by the failure after the budget, and reads old stats without a tally", () => {
    const s = step(1, 1, 2);
    delete (s.stats as Partial<typeof s.stats>).jobFailures;
    expect(isOverFailureBudget(s)).toBe(false);
    countJobFailure(s.stats, "sandbox/init", "no space left");
    countJobFailure(s.stats, "sandbox/init", "no space left on device");
    expect(isOverFailureBudget(s)).toBe(false);
    countJobFailure(s.stats, "submit", "store unavailable");
    expect(isOverFailureBudget(s)).toBe(true);
  });

  it("explains a failed step by counts, budget and its commonest cause; other steps have none", () => {
    const s = step(1, 2, 2);
    countJobFailure(s.stats, "inference/run", "no backend");
    countJobFailure(s.stats, "sandbox/init", "bwrap: cannot start");
    countJobFailure(s.stats, "sandbox/init", "bwrap: no space left on device");
    expect(stepFailureOf(s)).toBeNull();
    s.status = "failed";
    const failure = stepFailureOf(s);
    expect(failure).toMatchObject({
      reason: "failure-budget",
      jobsFailed: 3,
      budget: 2,
      commonestCause: "sandbox/init",
      commonestCauseJobs: 2,
      commonestMessage: "bwrap: no space left on device",
    });
    expect(failure?.message).toBe(
      "step stp_1 failed: 3 jobs failed for infrastructure reasons, past its budget of 2 (maxJobFailures); most were sandbox/init (2): bwrap: no space left on device. Its jobs were cancelled; fix the cause and create a new step.",
    );
  });

  it("counts a job its own configuration failed under a cause of its own, and says so", () => {
    expect(jobFailureCause("sandbox", "init", null)).toBe("sandbox/init");
    expect(jobFailureCause(null, null, undefined)).toBe("unknown/unknown");
    const cause = jobFailureCause("sandbox", "init", "misconfigured");
    expect(cause).toBe("sandbox/init/misconfigured");
    const s = step(1, 2, 1);
    countJobFailure(s.stats, "sandbox/init", "bwrap: cannot start");
    countJobFailure(s.stats, cause, 'MCP server "db": command not found');
    countJobFailure(s.stats, cause, 'MCP server "db": command not found');
    s.status = "failed";
    const failure = stepFailureOf(s);
    expect(failure).toMatchObject({ commonestCause: "sandbox/init/misconfigured", commonestCauseJobs: 2 });
    expect(failure?.message).toContain(
      "3 jobs failed for infrastructure reasons or their own configuration (2 misconfigured, not re-run: check the environment)",
    );
    expect(failure?.message).toContain('most were sandbox/init/misconfigured (2): MCP server "db"');
  });
});

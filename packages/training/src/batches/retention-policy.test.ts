import { describe, expect, it } from "vitest";
import { isGroupInUse, memberJobIds, stepsDueForArchive } from "./retention-policy";

const step = (index: number, closedAtMs: number | null) => ({
  id: `stp_${index}`,
  index,
  status: closedAtMs === null ? ("running" as const) : ("completed" as const),
  closedAtMs,
});

describe("stepsDueForArchive", () => {
  const steps = [step(0, 1_000), step(1, 5_000), step(2, 9_000), step(3, null)];

  it("archiveAfterSteps: closed steps with at least that many newer steps", () => {
    expect(stepsDueForArchive({ archiveAfterSteps: 1 }, steps, 10_000)).toEqual(["stp_0", "stp_1", "stp_2"]);
    expect(stepsDueForArchive({ archiveAfterSteps: 2 }, steps, 10_000)).toEqual(["stp_0", "stp_1"]);
    expect(stepsDueForArchive({ archiveAfterSteps: 4 }, steps, 10_000)).toEqual([]);
  });

  it("archiveAfterMs: steps closed at least that long ago; a running step never", () => {
    expect(stepsDueForArchive({ archiveAfterMs: 5_000 }, steps, 10_000)).toEqual(["stp_0", "stp_1"]);
    expect(stepsDueForArchive({ archiveAfterMs: 0 }, steps, 10_000)).toEqual(["stp_0", "stp_1", "stp_2"]);
  });

  it("both: every condition must hold", () => {
    expect(stepsDueForArchive({ archiveAfterSteps: 1, archiveAfterMs: 6_000 }, steps, 10_000)).toEqual([
      "stp_0",
    ]);
  });
});

describe("groups in use", () => {
  const due = new Set(["stp_0"]);
  const group = (stepId: string, state: "delivered" | "carried", into: string | null = null) => ({
    stepId,
    state,
    carriedIntoGroupId: into,
    expiredInStepId: null,
  });

  it("holds a kept step's groups and carried groups nobody took yet", () => {
    expect(isGroupInUse(group("stp_1", "delivered"), due)).toBe(true);
    expect(isGroupInUse(group("stp_0", "carried"), due)).toBe(true);
    expect(isGroupInUse(group("stp_0", "carried", "grp_next"), due)).toBe(false);
    expect(isGroupInUse(group("stp_0", "delivered"), due)).toBe(false);
  });

  it("memberJobIds skips slots never submitted", () => {
    expect(memberJobIds([{ members: [{ jobId: "a" }, { jobId: "" }, { jobId: "a" }] as never }])).toEqual([
      "a",
    ]);
  });
});

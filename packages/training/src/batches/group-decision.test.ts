import { describe, expect, it } from "vitest";
import { decideGroup, groupsToKeepInFlight, isGroupComplete } from "./group-decision";

const finished = (reward: number) => ({ status: "finished" as const, reward });
const running = { status: "running" as const, reward: null };

describe("decideGroup", () => {
  it("is informative as soon as two finished rewards differ, whatever still runs", () => {
    expect(decideGroup([finished(1), running, finished(0), running])).toBe("informative");
  });
  it("stays undecided while equal rewards may still be joined by a different one", () => {
    expect(decideGroup([finished(1), finished(1), running])).toBe("undecided");
  });
  it("is uninformative only when every member finished equal", () => {
    expect(decideGroup([finished(0.5), finished(0.5)])).toBe("uninformative");
  });
  it("fails when a member failed or was cancelled", () => {
    expect(decideGroup([finished(1), { status: "failed", reward: null }])).toBe("failed");
    expect(decideGroup([finished(1), finished(0), { status: "cancelled", reward: null }])).toBe("failed");
  });
  it("knows when a group is complete", () => {
    expect(isGroupComplete([finished(1), finished(0)])).toBe(true);
    expect(isGroupComplete([finished(1), running])).toBe(false);
  });
});

describe("groupsToKeepInFlight", () => {
  const base = {
    wanted: 4,
    overProvision: 1.5,
    informative: 0,
    decided: 0,
    policy: "zero-variance" as const,
  };
  it("keeps overProvision per wanted group before anything is decided", () => {
    expect(groupsToKeepInFlight(base)).toBe(6);
  });
  it("keeps more in flight when few decided groups were informative", () => {
    expect(groupsToKeepInFlight({ ...base, informative: 1, decided: 18 })).toBe(30);
  });
  it("keeps overProvision per wanted group with a pilot, whatever the informative rate", () => {
    expect(groupsToKeepInFlight({ ...base, informative: 1, decided: 18, hasPilot: true })).toBe(6);
  });
  it("keeps exactly the wanted groups under policy none, and none when nothing is wanted", () => {
    expect(groupsToKeepInFlight({ ...base, policy: "none" })).toBe(4);
    expect(groupsToKeepInFlight({ ...base, wanted: 0 })).toBe(0);
  });
});

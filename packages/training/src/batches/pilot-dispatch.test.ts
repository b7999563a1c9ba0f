import { describe, expect, it } from "vitest";
import {
  dispatchPriorityBoost,
  isLongShot,
  isPendingMember,
  membersToDispatch,
  pilotSize,
} from "./pilot-dispatch";

type Member = Parameters<typeof membersToDispatch>[0][number];

const pending = (slot: number, pastJobIds: string[] = []): Member => ({
  slot,
  status: "running",
  jobId: "",
  reward: null,
  pastJobIds,
});
const running = (slot: number): Member => ({ ...pending(slot), jobId: `job_${slot}` });
const finished = (slot: number, reward: number): Member => ({
  ...pending(slot),
  status: "finished",
  jobId: `job_${slot}`,
  reward,
});
const slots = (members: Member[]) => members.map((m) => m.slot);

describe("pilotSize", () => {
  const request = (pilot: number | undefined, policy: "none" | "zero-variance" = "zero-variance") => ({
    groupSize: 8,
    dynamicSampling: { policy, ...(pilot === undefined ? {} : { pilot }) },
  });
  it("is the pilot under the zero-variance policy when smaller than the group", () => {
    expect(pilotSize(request(3))).toBe(3);
  });
  it("is null without a pilot, under policy none, or when the pilot is the whole group", () => {
    expect(pilotSize(request(undefined))).toBeNull();
    expect(pilotSize(request(3, "none"))).toBeNull();
    expect(pilotSize(request(8))).toBeNull();
  });
});

describe("membersToDispatch", () => {
  const fresh = () => Array.from({ length: 8 }, (_, slot) => pending(slot));

  it("dispatches every pending member without a pilot", () => {
    expect(slots(membersToDispatch(fresh(), null, false))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("dispatches only the pilot of a new group", () => {
    expect(slots(membersToDispatch(fresh(), 3, false))).toEqual([0, 1, 2]);
  });

  it("waits while the pilot runs, even when its finished members agree", () => {
    const group = [finished(0, 1), finished(1, 1), running(2), ...fresh().slice(3)];
    expect(membersToDispatch(group, 3, false)).toEqual([]);
  });

  it("dispatches the rest as soon as two rewards differ", () => {
    const group = [finished(0, 1), finished(1, 0), running(2), ...fresh().slice(3)];
    expect(slots(membersToDispatch(group, 3, false))).toEqual([3, 4, 5, 6, 7]);
  });

  it("holds a long shot's rest until released", () => {
    const group = [finished(0, 0), finished(1, 0), finished(2, 0), ...fresh().slice(3)];
    expect(isLongShot(group, 3)).toBe(true);
    expect(membersToDispatch(group, 3, false)).toEqual([]);
    expect(slots(membersToDispatch(group, 3, true))).toEqual([3, 4, 5, 6, 7]);
  });

  it("fills a pilot cut short (a carried group with one sample), re-runs first", () => {
    const group = [finished(0, 1), pending(1), pending(2, ["job_old"]), ...fresh().slice(3)];
    expect(slots(membersToDispatch(group, 3, false))).toEqual([2, 1]);
  });

  it("dispatches nothing for a failed group", () => {
    const group = [{ ...finished(0, 1), status: "failed" as const }, ...fresh().slice(1)];
    expect(membersToDispatch(group, 3, true)).toEqual([]);
  });
});

describe("isLongShot and isPendingMember", () => {
  it("is not a long shot while a member runs, without a pilot, or with nothing left to run", () => {
    const agreeing = [finished(0, 1), finished(1, 1), finished(2, 1)];
    expect(isLongShot([...agreeing, running(3), pending(4)], 3)).toBe(false);
    expect(isLongShot([...agreeing, pending(3)], null)).toBe(false);
    expect(isLongShot(agreeing, 3)).toBe(false);
  });
  it("knows a pending member: running without a job", () => {
    expect(isPendingMember(pending(0))).toBe(true);
    expect(isPendingMember(running(0))).toBe(false);
  });
});

describe("dispatchPriorityBoost", () => {
  it("raises the members of an informative group by one", () => {
    expect(dispatchPriorityBoost([finished(0, 1), finished(1, 0), pending(2)])).toBe(1);
    expect(dispatchPriorityBoost([finished(0, 1), finished(1, 1), pending(2)])).toBe(0);
  });
});

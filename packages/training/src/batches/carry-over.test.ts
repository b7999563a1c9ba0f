import { type TGroupMember, ZCreateRunRequest, ZCreateStepRequest } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { GroupRecord } from "../ports/batch-store.port";
import { carryIn } from "./carry-over";
import { newRunRecord, newStepRecord } from "./new-records";
import type { ProgressContext, StepState } from "./step-progress";

const GROUP_SIZE = 4;

function stepState(groups: number): StepState {
  const run = newRunRecord(ZCreateRunRequest.parse({ name: "carry" }), null, 1_000);
  const request = ZCreateStepRequest.parse({
    runId: run.id,
    tasks: { type: "inline", tasks: [{ taskId: "fresh", kind: "math", payload: {} }] },
    groupSize: GROUP_SIZE,
    groups,
    dynamicSampling: { policy: "zero-variance", overProvision: 1, pilot: 2 },
  });
  return { run, step: newStepRecord(run, request, 2_000), groups: [] };
}

const finished = (slot: number, reward: number): TGroupMember => ({
  slot,
  jobId: `job-${slot}`,
  status: "finished",
  reward,
  failureKind: null,
  attempts: 1,
  dispatchVersion: 0,
  isStale: false,
  carriedFromStepId: null,
  rolloutMs: 2_000,
  generatedTokens: 100,
  pastJobIds: [],
});

const unsent = (slot: number): TGroupMember => ({
  ...finished(slot, 0),
  jobId: "",
  status: "cancelled",
  reward: null,
});

/** A group of an earlier step carried at its close: `rewards` finished, the other slots never sent. */
function carried(id: string, createdAtMs: number, rewards: number[]): GroupRecord {
  return {
    id,
    stepId: "stp_old",
    runId: "run_old",
    taskId: id,
    kind: "math",
    task: { taskId: id, kind: "math", payload: {} },
    decision: "undecided",
    state: "carried",
    seq: null,
    members: Array.from({ length: GROUP_SIZE }, (_, slot) =>
      slot < rewards.length ? finished(slot, rewards[slot] as number) : unsent(slot),
    ),
    createdAtMs,
    decidedAtMs: null,
    finishedAtMs: null,
    carriedIntoGroupId: null,
    expiredInStepId: null,
    version: 0,
  };
}

function context(): ProgressContext {
  let next = 0;
  return { nowMs: 3_000, weightVersion: 0, newGroupId: () => `grp_new_${next++}`, drawTask: () => null };
}

describe("carryIn", () => {
  it("takes `groups` long shots, keeps as many waiting and lets the older rest go, with their cost", () => {
    const state = stepState(2);
    // Oldest first, as the store lists them: six long shots (pilots agreed) and one partial group.
    const longShots = ["ls-0", "ls-1", "ls-2", "ls-3", "ls-4", "ls-5"].map((id, i) => carried(id, i, [1, 1]));
    const partial = carried("partial", 10, [1, 0]);
    const actions = carryIn(state, [...longShots, partial], context());

    // The two oldest long shots and the partial group (not a long shot: its pilot differed) are taken.
    expect(state.groups.map((g) => g.taskId)).toEqual(["ls-0", "ls-1", "partial"]);
    const taken = [longShots[0], longShots[1], partial];
    expect(taken.map((g) => g?.carriedIntoGroupId)).toEqual(state.groups.map((g) => g.id));
    // The two newest wait for the next step; the two between are let go by this step.
    expect(longShots.map((g) => g.expiredInStepId)).toEqual([
      null,
      null,
      state.step.id,
      state.step.id,
      null,
      null,
    ]);
    expect(longShots.slice(4).map((g) => g.carriedIntoGroupId)).toEqual([null, null]);
    expect(state.step.stats.waste.expiredLongShots).toEqual({
      jobs: 4,
      rolloutSeconds: 8,
      generatedTokens: 400,
    });
    // Only the partial group's missing slots run now; the taken long shots' wait for spare work.
    expect(
      actions.filter((a) => a.type === "submit").map((a) => a.type === "submit" && a.group.taskId),
    ).toEqual(["partial", "partial"]);
    expect(state.step.stats.trajectoriesCarriedIn).toBe(6);
  });

  it("lets nothing go while no more long shots wait than a step takes", () => {
    const state = stepState(2);
    const longShots = ["a", "b", "c", "d"].map((id, i) => carried(id, i, [0, 0]));
    carryIn(state, longShots, context());
    expect(longShots.map((g) => g.carriedIntoGroupId !== null)).toEqual([true, true, false, false]);
    expect(longShots.every((g) => g.expiredInStepId === null)).toBe(true);
    expect(state.step.stats.waste.expiredLongShots).toEqual({
      jobs: 0,
      rolloutSeconds: 0,
      generatedTokens: 0,
    });
  });
});

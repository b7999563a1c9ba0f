import { describe, expect, it } from "vitest";
import type { GroupRecord, StepRecord } from "../ports/batch-store.port";
import { memberSubmitRequest } from "./member-request";
import { pendingMember } from "./step-progress";

const step = {
  id: "stp_1",
  runId: "run_1",
  index: 0,
  request: { priority: 5, agent: { temperature: 1 } },
} as unknown as StepRecord;

function group(members: GroupRecord["members"]): GroupRecord {
  return {
    id: "grp_1",
    task: { taskId: "t", kind: "math", payload: { question: "1+1", agent: { maxTurns: 3 } } },
    taskId: "t",
    members,
  } as unknown as GroupRecord;
}

const _carried = (reward: number) => ({
  ...pendingMember(0, 1),
  status: "finished" as const,
  reward,
  jobId: "job_old",
  carriedFromStepId: "stp_0",
});

describe("memberSubmitRequest", () => {
  it("merges the step's agent overrides and gives every slot and dispatch its own seed and key", () => {
    const g = group([pendingMember(0, 1), pendingMember(1, 1)]);
    const [a, b] = [memberSubmitRequest(step, g, g.members[0]!), memberSubmitRequest(step, g, g.members[1]!)];
    expect(a.payload).toMatchObject({ question: "1+1", agent: { maxTurns: 3, temperature: 1 } });
    expect((a.payload as { agent: { seed: number } }).agent.seed).not.toBe(
      (b.payload as { agent: { seed: number } }).agent.seed,
    );
    expect([a.jobKey, b.jobKey]).toEqual(["grp_1:0:0", "grp_1:1:0"]);
    expect(a).toMatchObject({
      groupId: "grp_1",
      batchId: "stp_1",
      priority: 5,
      metadata: { slot: 0, taskId: "t" },
    });
  });

  it("names the step's teacher in every member's agent overrides", () => {
    const teacher = { policyId: "teacher" };
    const withTeacher = { ...step, request: { priority: 0, teacher } } as unknown as StepRecord;
    const g = group([pendingMember(0, 1)]);
    const request = memberSubmitRequest(withTeacher, g, g.members[0]!);
    expect(request.payload).toEqual({ question: "1+1", agent: { maxTurns: 3, teacher } });
    expect(memberSubmitRequest(step, g, g.members[0]!).payload).not.toHaveProperty("agent.teacher");
  });

  it("carries the run's default image in the metadata, the payload untouched, and nothing without one", () => {
    const g = group([pendingMember(0, 1)]);
    const run = { share: 1, priority: 0, maxSandboxes: null, policyId: "default" };
    const withImage = memberSubmitRequest(step, g, g.members[0]!, { ...run, image: "/images/trixie.sif" });
    expect(withImage.metadata).toMatchObject({ defaultImage: "/images/trixie.sif" });
    expect(withImage.payload).not.toHaveProperty("image");
    const without = memberSubmitRequest(step, g, g.members[0]!, { ...run, image: null });
    expect(without.metadata).not.toHaveProperty("defaultImage");
  });
});

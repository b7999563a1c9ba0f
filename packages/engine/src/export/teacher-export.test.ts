import { type TJob, type TTeacherScore, type TTurn, ZTrajectoryExport } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { buildTrajectoryExport } from "./build-trajectory-export";

const teacher = { policyId: "teacher" };
const job = {
  id: "job_1",
  jobKey: null,
  kind: "math",
  status: "completed",
  stage: "eval",
  priority: 0,
  groupId: null,
  batchId: null,
  payload: { agent: { teacher } },
  metadata: null,
  ownerId: null,
  policyId: "default",
  timeoutsMs: null,
  failure: null,
  reward: 1,
  trainable: true,
  result: null,
  timings: { queueMs: 1, initMs: 2, runMs: 3, evalMs: 4 },
  attempts: 1,
  createdAtMs: 0,
  updatedAtMs: 0,
  finishedAtMs: 10,
} satisfies TJob;

function turn(index: number, promptIds: number[], responseIds: number[]): TTurn {
  return {
    jobId: job.id,
    index,
    promptIds,
    responseIds,
    logprobs: responseIds.map(() => -0.5),
    backendId: "b",
    weightVersion: null,
    cachedPromptTokens: null,
    latencyMs: 1,
    finishReason: "stop",
    text: null,
    createdAtMs: index,
  };
}

// Stream [1 2 | 10 11 | 4 | 12]: the last prompt + response is the whole trajectory.
const turns = [turn(0, [1, 2], [10, 11]), turn(1, [1, 2, 10, 11, 4], [12])];
const scored: TTeacherScore = {
  jobId: job.id,
  teacher,
  backendId: "t1",
  scoredTokens: 6,
  logprobs: [null, -1, -2, -3, -4, -5],
  missingReason: null,
  createdAtMs: 5,
};

describe("teacher logprobs in the export", () => {
  it("aligns the teacher's logprobs to the sampled tokens, null elsewhere", () => {
    const row = buildTrajectoryExport(job, turns, [], scored);
    expect(ZTrajectoryExport.parse(row)).toEqual(row);
    expect(row.lossMask).toEqual([0, 0, 1, 1, 0, 1]);
    expect(row.teacherLogprobs).toEqual([null, null, -2, -3, null, -5]);
    expect(row.teacher).toEqual({
      policyId: "teacher",
      backendId: "t1",
      isScored: true,
      missingReason: null,
    });
  });

  it("says why when the teacher is missing, and keeps the reward", () => {
    const missing = { ...scored, logprobs: null, missingReason: "the teacher failed: connection refused" };
    const row = buildTrajectoryExport(job, turns, [], missing);
    expect(row).not.toHaveProperty("teacherLogprobs");
    expect(row.teacher).toMatchObject({ isScored: false, missingReason: missing.missingReason });
    expect(row.reward).toBe(1);
    expect(row.trainable).toBe(true);
  });

  it("will not place a score that does not cover the exported stream", () => {
    const row = buildTrajectoryExport(job, turns, [], {
      ...scored,
      scoredTokens: 5,
      logprobs: [null, 1, 2, 3, 4],
    });
    expect(row).not.toHaveProperty("teacherLogprobs");
    expect(row.teacher?.missingReason).toMatch(/scored 5 tokens but the exported stream has 6/);
  });

  it("reports a named teacher without a score as missing, and no teacher when none was named", () => {
    expect(buildTrajectoryExport(job, turns).teacher?.missingReason).toMatch(/ended before the teacher/);
    const running = buildTrajectoryExport({ ...job, status: "active" }, turns);
    expect(running.teacher?.missingReason).toMatch(/still running/);
    const plain = buildTrajectoryExport({ ...job, payload: {} }, turns);
    expect(plain).not.toHaveProperty("teacher");
    expect(plain).not.toHaveProperty("teacherLogprobs");
  });
});

import type { TTeacherScore } from "@raas/shared";
import { stageFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import type { ScorePromptRequest } from "../ports/inference-pool.port";
import { scoreWithTeacher } from "./teacher-scoring";

type Recorded = Omit<TTeacherScore, "jobId" | "createdAtMs">;

const turns = [
  { promptIds: [1, 2], responseIds: [10, 11] },
  { promptIds: [1, 2, 10, 11, 4], responseIds: [12] },
];
const teacher = { policyId: "teacher" };

async function score(
  scorePrompt:
    | ((request: ScorePromptRequest) => Promise<{ logprobs: (number | null)[]; backendId: string }>)
    | undefined,
  signal = new AbortController().signal,
) {
  const recorded: Recorded[] = [];
  const asked: ScorePromptRequest[] = [];
  await scoreWithTeacher({
    jobId: "job_1",
    inference: scorePrompt
      ? {
          scorePrompt: (request) => {
            asked.push(request);
            return scorePrompt(request);
          },
        }
      : {},
    teacher,
    turns,
    recorder: {
      turn: () => undefined,
      toolCall: () => undefined,
      sandboxEvent: () => undefined,
      teacherScore: (value) => recorded.push(value),
    },
    signal,
    clock: { now: () => 1_000 },
  });
  return { recorded, asked };
}

describe("scoreWithTeacher", () => {
  it("scores the last prompt + response once and records every logprob", async () => {
    const logprobs = [null, -1, -2, -3, -4, -5];
    const { recorded, asked } = await score(async () => ({ logprobs, backendId: "t1" }));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ jobId: "job_1", promptIds: [1, 2, 10, 11, 4, 12], teacher });
    expect(asked[0]?.deadlineMs).toBeGreaterThan(1_000);
    expect(recorded).toEqual([{ teacher, backendId: "t1", scoredTokens: 6, logprobs, missingReason: null }]);
  });

  it("records a failing teacher as missing with the reason, without throwing", async () => {
    const down = stageFailure("inference", "t1: connection refused");
    const { recorded } = await score(async () => {
      throw down;
    });
    expect(recorded).toEqual([
      {
        teacher,
        backendId: null,
        scoredTokens: 6,
        logprobs: null,
        missingReason: "the teacher failed: t1: connection refused",
      },
    ]);
  });

  it("records a short answer and a pool that cannot score as missing", async () => {
    const short = await score(async () => ({ logprobs: [null, -1], backendId: "t1" }));
    expect(short.recorded[0]?.missingReason).toBe("teacher backend t1 returned 2 logprobs for 6 tokens");
    const none = await score(undefined);
    expect(none.recorded[0]?.missingReason).toBe("this service's inference pool cannot score prompts");
  });

  it("rethrows when the stage itself was aborted (cancel, stage timeout)", async () => {
    const aborter = new AbortController();
    const cancelled = new Error("cancelled");
    const scoring = score(async () => {
      aborter.abort(cancelled);
      throw cancelled;
    }, aborter.signal);
    await expect(scoring).rejects.toBe(cancelled);
  });
});

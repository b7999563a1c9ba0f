import { describe, expect, it } from "vitest";
import { decideJudgeVerdict, readJudgeScore } from "./judge-verdict";

const scale = { min: 0, max: 10 };
const prompt = [{ role: "user" as const, content: "grade this" }];
const reply = (text: string) => ({
  type: "reply" as const,
  text,
  model: "judge-m",
  backendId: "j0",
  durationMs: 12.4,
});

describe("readJudgeScore", () => {
  it("reads the last line's score, in the documented forms", () => {
    expect(readJudgeScore("Good.\nSCORE: 7", scale)).toEqual({ type: "score", score: 7 });
    expect(readJudgeScore("Good.\n\nscore: 7.5  \n\n", scale)).toEqual({ type: "score", score: 7.5 });
    expect(readJudgeScore("**SCORE: 3**", scale)).toEqual({ type: "score", score: 3 });
    expect(readJudgeScore("`SCORE: 10/10`", scale)).toEqual({ type: "score", score: 10 });
  });

  it("takes only the last line: a SCORE line quoted earlier is not the grade", () => {
    const text =
      'The response says "SCORE: 10" and asks me to ignore the rubric.\nSCORE: 10\nIt does not rhyme.\nSCORE: 2';
    expect(readJudgeScore(text, scale)).toEqual({ type: "score", score: 2 });
  });

  it("refuses replies without a final score line", () => {
    for (const text of [
      "",
      "   \n",
      "I think it deserves a 7.",
      "SCORE: 7\nThanks!",
      "SCORE: seven",
      "SCORE: 7/5",
    ]) {
      expect(readJudgeScore(text, scale).type).toBe("unparseable");
    }
  });

  it("tells a score outside the scale apart", () => {
    expect(readJudgeScore("SCORE: 11", scale)).toEqual({ type: "out_of_range", score: 11 });
    expect(readJudgeScore("SCORE: -1", scale)).toEqual({ type: "out_of_range", score: -1 });
  });
});

describe("decideJudgeVerdict", () => {
  it("normalises the score onto [0, 1] and records prompt, reply, score and model", () => {
    const verdict = decideJudgeVerdict(reply("Fine.\nSCORE: 4"), { prompt, scale: { min: 2, max: 6 } });
    expect(verdict).toEqual({
      type: "reward",
      reward: 0.5,
      report: {
        type: "judge",
        status: "scored",
        crashed: false,
        model: "judge-m",
        backendId: "j0",
        prompt,
        reply: "Fine.\nSCORE: 4",
        score: 4,
        scale: { min: 2, max: 6 },
        error: null,
        durationMs: 12,
      },
    });
  });

  it("fails as infrastructure (eval), never reward 0, on an unparseable or out-of-range reply", () => {
    const unparseable = decideJudgeVerdict(reply("No score from me."), { prompt, scale });
    expect(unparseable).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "unparseable", crashed: true, reply: "No score from me.", model: "judge-m" },
    });
    const outside = decideJudgeVerdict(reply("SCORE: 12"), { prompt, scale });
    expect(outside).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "out_of_range", score: 12 },
    });
  });

  it("fails as eval when the call failed and as timeout past the limit", () => {
    const down = decideJudgeVerdict(
      { type: "error", isTimeout: false, message: "ECONNREFUSED", backendId: "j0", durationMs: 3 },
      { prompt, scale },
    );
    expect(down).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "call_failed", reply: null, model: null, crashed: true },
    });
    const slow = decideJudgeVerdict(
      { type: "error", isTimeout: true, message: "deadline", backendId: "j0", durationMs: 3 },
      { prompt, scale },
    );
    expect(slow).toMatchObject({ type: "failure", kind: "timeout", report: { status: "timed_out" } });
  });
});

import { describe, expect, it } from "vitest";
import { judgeOracleCheck, type OracleJobOutcome } from "./oracle-verdict";

const completed = (reward: number): OracleJobOutcome => ({ status: "completed", reward, failure: null });
const failed = (kind: string, message: string): OracleJobOutcome => ({
  status: "failed",
  reward: null,
  failure: { kind, message },
});

describe("judgeOracleCheck", () => {
  it("passes a full-reward oracle and a zero-reward no-op", () => {
    expect(judgeOracleCheck({ oracle: completed(1), noop: completed(0) })).toEqual({
      verdict: "pass",
      reasons: [],
    });
  });

  it("fails an oracle short of full reward, and a no-op that earns something", () => {
    expect(judgeOracleCheck({ oracle: completed(0.5), noop: completed(1) })).toEqual({
      verdict: "fail",
      reasons: ["oracle: reward 0.5, expected 1", "no-op: reward 1, expected 0"],
    });
  });

  it("holds a judge's reference answer to the environment's pass threshold, not to full reward", () => {
    expect(judgeOracleCheck({ oracle: completed(0.9), noop: completed(0), oracleMinReward: 0.8 })).toEqual({
      verdict: "pass",
      reasons: [],
    });
    expect(judgeOracleCheck({ oracle: completed(0.7), noop: completed(0.1), oracleMinReward: 0.8 })).toEqual({
      verdict: "fail",
      reasons: ["oracle: reward 0.7, expected at least 0.8", "no-op: reward 0.1, expected 0"],
    });
  });

  it("fails when a verifier crashed: no reward is not reward 0", () => {
    expect(
      judgeOracleCheck({ oracle: completed(1), noop: failed("eval", "verify.py raised ValueError") }),
    ).toEqual({ verdict: "fail", reasons: ["no-op: failed (eval: verify.py raised ValueError)"] });
  });

  it("skips a task without a reference solution, saying why", () => {
    expect(
      judgeOracleCheck({ oracle: null, noop: completed(0), skipReason: "no solution/solve.sh" }),
    ).toEqual({ verdict: "skipped", reasons: ["no solution/solve.sh"] });
  });
});

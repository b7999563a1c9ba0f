import { describe, expect, it } from "vitest";
import { decideRewardVerdict } from "./reward-fn-verdict";

const NONCE = "n0nce";
const frame = (doc: unknown, nonce = NONCE) =>
  `RAAS-REWARD ${nonce} ${Buffer.from(JSON.stringify(doc)).toString("base64")}\n`;
const run = (stdout: string, extra: Partial<Parameters<typeof decideRewardVerdict>[0]> = {}) => ({
  stdout,
  stderr: "",
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 12,
  ...extra,
});
const strict = { exceptionMeansWrong: false, timeLimitMs: 5_000 };
const lenient = { exceptionMeansWrong: true, timeLimitMs: 5_000 };

describe("decideRewardVerdict", () => {
  it("takes a float, a bool, or a dict's score (keeping its other keys)", () => {
    expect(decideRewardVerdict(run(frame({ status: "scored", value: 0.5 })), NONCE, strict)).toMatchObject({
      type: "reward",
      reward: 0.5,
      report: { status: "scored", crashed: false, score: 0.5 },
    });
    expect(decideRewardVerdict(run(frame({ status: "scored", value: true })), NONCE, strict)).toMatchObject({
      reward: 1,
    });
    const dict = decideRewardVerdict(
      run(frame({ status: "scored", value: { score: -1, acc: false, pred: "7" } })),
      NONCE,
      strict,
    );
    expect(dict).toMatchObject({
      type: "reward",
      reward: -1,
      report: { details: { acc: false, pred: "7" } },
    });
  });

  it("takes a dict's turn_rewards (sent beside the value), and fails the verifier on malformed ones", () => {
    const scored = (turnRewards: unknown) =>
      decideRewardVerdict(
        run(frame({ status: "scored", value: { score: 1, acc: 1 }, turn_rewards: turnRewards })),
        NONCE,
        strict,
      );
    expect(
      scored([
        { turn: 1, reward: 0.5, label: "step" },
        { turn: 0, reward: -1 },
      ]),
    ).toMatchObject({
      type: "reward",
      reward: 1,
      turnRewards: [
        { turn: 1, reward: 0.5, label: "step" },
        { turn: 0, reward: -1, label: null },
      ],
      report: { details: { acc: 1 } },
    });
    expect(scored(null)).toMatchObject({ type: "reward", turnRewards: [] });
    for (const [bad, says] of [
      [[{ turn: 0, reward: "nan" }], "turn_rewards[0].reward"],
      [[{ turn: 1.5, reward: 1 }], "turn_rewards[0].turn"],
      [{ turn: 0, reward: 1 }, "expected array"],
      [Array.from({ length: 10_001 }, () => ({ turn: 0, reward: 1 })), "turn_rewards"],
    ] as const) {
      expect(scored(bad)).toMatchObject({
        type: "failure",
        kind: "eval",
        report: { status: "bad_score", crashed: true },
      });
      expect((scored(bad) as { message: string }).message).toContain(says);
    }
  });

  it("refuses what is not a score as the verifier's failure, never reward 0", () => {
    for (const value of [null, "1", "inf", [1], { acc: 1 }, { score: "1" }]) {
      const verdict = decideRewardVerdict(run(frame({ status: "scored", value })), NONCE, lenient);
      expect(verdict).toMatchObject({
        type: "failure",
        kind: "eval",
        report: { status: "bad_score", crashed: true },
      });
    }
  });

  it("reads only the line with this run's nonce, and exactly one", () => {
    const forged = frame({ status: "scored", value: 1 }, "guessed");
    const real = frame({ status: "scored", value: 0 });
    expect(decideRewardVerdict(run(forged + real), NONCE, strict)).toMatchObject({ reward: 0 });
    expect(decideRewardVerdict(run(forged), NONCE, strict)).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "crashed" },
    });
    expect(decideRewardVerdict(run(real + real), NONCE, strict)).toMatchObject({
      type: "failure",
      kind: "eval",
    });
  });

  it("a time-out is `timeout`, whatever was written, exceptionMeansWrong or not", () => {
    const verdict = decideRewardVerdict(
      run(frame({ status: "scored", value: 1 }), { timedOut: true }),
      NONCE,
      lenient,
    );
    expect(verdict).toMatchObject({
      type: "failure",
      kind: "timeout",
      report: { status: "timed_out", crashed: true },
    });
  });

  it("an exception is infrastructure unless the environment says it means wrong", () => {
    const raised = run(frame({ status: "exception", error: "ValueError: bad" }));
    expect(decideRewardVerdict(raised, NONCE, strict)).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "exception", crashed: true, error: "ValueError: bad" },
    });
    expect(decideRewardVerdict(raised, NONCE, lenient)).toMatchObject({
      type: "reward",
      reward: 0,
      report: { status: "exception_means_wrong", crashed: true, error: "ValueError: bad" },
    });
  });

  it("a setup error or a dead process is infrastructure even when exceptions mean wrong", () => {
    const setup = run(frame({ status: "setup", error: "SyntaxError: invalid syntax" }));
    expect(decideRewardVerdict(setup, NONCE, lenient)).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "setup_failed" },
    });
    const killed = run("", { exitCode: null, signal: "SIGKILL", stderr: "Killed" });
    expect(decideRewardVerdict(killed, NONCE, lenient)).toMatchObject({
      type: "failure",
      kind: "eval",
      report: { status: "crashed", crashed: true, stderrTail: "Killed" },
    });
  });
});

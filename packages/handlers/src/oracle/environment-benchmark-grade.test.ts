import { describe, expect, it } from "vitest";
import { gradeEnvironmentJob, isResolvedReward } from "./environment-benchmark-grade";

const failure = (kind: "agent" | "eval" | "timeout" | "sandbox", label: "tampered" | null = null) => ({
  kind,
  stage: kind === "eval" ? ("eval" as const) : ("run" as const),
  message: `${kind} went wrong`,
  label,
});

describe("gradeEnvironmentJob", () => {
  it("grades a completed job with its reward; full marks resolve", () => {
    expect(gradeEnvironmentJob({ status: "completed", reward: 1, trainable: true, failure: null })).toEqual({
      reward: 1,
      failure: null,
    });
    expect(gradeEnvironmentJob({ status: "completed", reward: 0.4, trainable: true, failure: null })).toEqual(
      {
        reward: 0.4,
        failure: null,
      },
    );
    expect([isResolvedReward(1), isResolvedReward(0.99), isResolvedReward(0)]).toEqual([true, false, false]);
    // A judge environment resolves at its pass threshold (0.8 of its scale by default), not at 1.
    expect([isResolvedReward(0.8, 0.8), isResolvedReward(0.79, 0.8), isResolvedReward(1, 0.8)]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("grades the policy's own failure with its failure reward, naming it", () => {
    expect(
      gradeEnvironmentJob({
        status: "failed",
        reward: 0,
        trainable: true,
        failure: failure("agent", "tampered"),
      }),
    ).toEqual({ reward: 0, failure: "agent (tampered): agent went wrong" });
  });

  it("makes an infrastructure failure, a time-out or a cancel an error, never reward 0", () => {
    expect(
      gradeEnvironmentJob({ status: "failed", reward: null, trainable: false, failure: failure("eval") }),
    ).toEqual({ error: "eval in eval: eval went wrong" });
    expect(
      gradeEnvironmentJob({ status: "failed", reward: null, trainable: false, failure: failure("timeout") }),
    ).toEqual({ error: "timeout in run: timeout went wrong" });
    expect(
      gradeEnvironmentJob({ status: "cancelled", reward: null, trainable: false, failure: null }),
    ).toEqual({
      error: "cancelled",
    });
  });
});

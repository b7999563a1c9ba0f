import type { TRewardFnPayload } from "../../../src/reward-fn/reward-fn-payload.schema";

/** A `reward-fn` job over a verify.py written in the test (ground truth "42" unless given). */
export function verifierJob(
  taskId: string,
  source: string,
  options: Partial<TRewardFnPayload["verifier"]> & { groundTruth?: string } = {},
): { kind: "reward-fn"; payload: TRewardFnPayload } {
  const { groundTruth = "42", ...verifier } = options;
  return {
    kind: "reward-fn",
    payload: {
      taskId,
      environment: "test",
      prompt: "What is 6 times 7?",
      dataSource: "test/source",
      groundTruth,
      extraInfo: { index: 7, split: "test" },
      verifier: {
        source,
        function: "compute_score",
        timeLimitMs: 20_000,
        exceptionMeansWrong: false,
        ...verifier,
      },
    },
  };
}

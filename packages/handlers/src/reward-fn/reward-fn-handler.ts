import { stageFailure } from "@raas/shared";
import { z } from "zod";
import { defineAgentHandler } from "../base/define-agent-handler";
import { submitToolSpec } from "../base/submit-tool";
import { type VerifierTurn, verifierTurnsOf } from "../base/verifier-turn-rewards";
import { type TRewardFnPayload, ZRewardFnPayload } from "./reward-fn-payload.schema";
import { runRewardVerifier } from "./reward-fn-verifier";

const ZVerifierReport = z
  .object({
    status: z
      .enum([
        "scored",
        "exception_means_wrong",
        "exception",
        "setup_failed",
        "bad_score",
        "crashed",
        "timed_out",
      ])
      .describe(
        "How the verifier ended: `scored`; `exception_means_wrong` (compute_score raised and the environment counts that as a wrong answer: reward 0); on a failed job `exception`, `setup_failed`, `bad_score`, `crashed` or `timed_out` (infrastructure, no reward).",
      ),
    crashed: z
      .boolean()
      .describe("The verifier gave no score of its own (every status but `scored`): count these per run."),
    score: z.number().nullable().describe("The score compute_score returned; null when none."),
    details: z.record(z.string(), z.unknown()).describe("The other keys of a returned dict."),
    error: z.string().nullable().describe("The exception or setup error; null when none."),
    stderrTail: z.string().describe("The last 4 KiB of the verifier's stderr (its prints go there)."),
    durationMs: z.number().describe("How long the verifier command took, in ms."),
  })
  .describe("What the environment's verify.py reported.");

const ZRewardFnResult = z.object({
  environment: z.string().describe("The environment's name."),
  solutionSource: z
    .enum(["submission", "final_message"])
    .describe("Where solution_str came from: the submit call's answer, else the last message."),
  solutionChars: z.number().int().describe("Length of solution_str in characters."),
  verifier: ZVerifierReport,
});

/** What RUN hands to EVAL: the turns, for a compute_score that names `turns`. */
interface RewardFnArtifacts {
  turns: VerifierTurn[];
}

const DEFAULT_SYSTEM_PROMPT =
  "Solve the task. You may run Python with the python tool. Give your final answer in your last " +
  "message (or call submit with it).";

/** solution_str: the submit call's `answer` when the policy gave one, else its last message. */
function solutionOf(run: {
  submission: { arguments: Record<string, unknown> } | null;
  finalContent: string;
}): { solution: string; source: "submission" | "final_message" } {
  const answer = run.submission?.arguments.answer;
  return typeof answer === "string"
    ? { solution: answer, source: "submission" }
    : { solution: run.finalContent, source: "final_message" };
}

/**
 * Python reward functions: a dataset row's prompt to the built-in agent loop (python, submit),
 * then the environment's verify.py (`compute_score`, veRL's convention) on the policy's answer in
 * a fresh sandbox of its own. A crash or time-out of the verifier is infrastructure (`eval` /
 * `timeout`, no reward) unless the environment declares `exceptionMeansWrong` and compute_score
 * raised: then reward 0. Either way `verifier.crashed` marks the job. See `README.md` here.
 */
export const createRewardFnHandler = defineAgentHandler<TRewardFnPayload, undefined, RewardFnArtifacts>({
  kind: "reward-fn",
  description:
    "Python reward functions: a JSONL dataset graded by the environment's verify.py (compute_score).",
  payloadSchema: ZRewardFnPayload,
  resultSchema: ZRewardFnResult,
  tools: ["python"],
  submitTool: submitToolSpec("Submit your final answer and end the task.", "Your final answer."),
  limits: { maxTurns: 12 },
  systemPrompt: (payload) => payload.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
  userMessage: (payload) => `Task id: ${payload.taskId}\n\n${payload.prompt}`,
  collect: async ({ loop }) => ({ turns: verifierTurnsOf(loop) }),
  async evaluate({ payload, run, artifacts, openSandbox, signal }) {
    const { solution, source } = solutionOf(run);
    const verdict = await runRewardVerifier({
      openSandbox,
      payload,
      solution,
      turns: artifacts.turns,
      signal,
    });
    const result = {
      environment: payload.environment,
      solutionSource: source,
      solutionChars: solution.length,
      verifier: verdict.report,
    };
    if (verdict.type === "failure") throw stageFailure(verdict.kind, verdict.message, { result });
    return { reward: verdict.reward, result, turnRewards: verdict.turnRewards };
  },
});

import { randomBytes } from "node:crypto";
import type { Sandbox, SandboxSpec } from "@raas/engine";
import type { VerifierTurn } from "../base/verifier-turn-rewards";
import type { TRewardFnPayload } from "./reward-fn-payload.schema";
import { REWARD_RUNNER_PY } from "./reward-fn-runner.script";
import { decideRewardVerdict, type RewardVerdict } from "./reward-fn-verdict";

const RUNNER_PATH = ".raas/reward_runner.py";
const VERIFIER_PATH = "verifier/verify.py";
/** stdout and stderr kept of a verifier run (head and tail); the result line is the runner's last. */
const MAX_OUTPUT_BYTES = 4 * 1024 ** 2;

/**
 * Runs the environment's verify.py on the policy's solution in a sandbox of its own: fresh (made
 * for this call, nothing of the agent's sandbox in it), holding only the runner and verify.py,
 * with the workspace read-only. The solution, ground truth and extra info travel as JSON on the
 * runner's stdin — never as code — and the score comes back on a descriptor only the runner holds,
 * marked with a nonce made here (see `REWARD_RUNNER_PY`). The sandbox is closed before returning.
 * Sandbox errors propagate (the caller's `openSandbox` makes them `sandbox` failures).
 */
export async function runRewardVerifier(input: {
  openSandbox(spec?: Omit<SandboxSpec, "jobId">): Promise<Sandbox>;
  payload: TRewardFnPayload;
  solution: string;
  /** The trajectory's turns, passed as `turns` to a compute_score that names that parameter. */
  turns?: readonly VerifierTurn[];
  signal: AbortSignal;
}): Promise<RewardVerdict> {
  const { payload, signal } = input;
  const { verifier } = payload;
  const sandbox = await input.openSandbox({
    files: { [RUNNER_PATH]: REWARD_RUNNER_PY, [VERIFIER_PATH]: verifier.source },
  });
  try {
    const nonce = randomBytes(16).toString("hex");
    const request = {
      nonce,
      verifier_path: VERIFIER_PATH,
      function: verifier.function,
      inputs: {
        data_source: payload.dataSource,
        solution_str: input.solution,
        ground_truth: payload.groundTruth,
        extra_info: payload.extraInfo,
      },
      named_only: { turns: input.turns ?? [] },
    };
    const run = await sandbox.exec(["python3", "-I", RUNNER_PATH], {
      stdin: JSON.stringify(request),
      timeoutMs: verifier.timeLimitMs,
      readOnlyWorkspace: true,
      maxOutputBytes: MAX_OUTPUT_BYTES,
      env: { PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8" },
      signal,
    });
    return decideRewardVerdict(run, nonce, {
      exceptionMeansWrong: verifier.exceptionMeansWrong,
      timeLimitMs: verifier.timeLimitMs,
    });
  } finally {
    // A failing close must not mask the verdict; runtimes reap sandboxes anyway.
    await sandbox.close().catch(() => undefined);
  }
}

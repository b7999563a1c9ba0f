// The reward-fn handler's three stages on real bubblewrap sandboxes with a scripted policy: the
// shipped math-verify environment end to end, verify.py's signature variants, and who a
// verifier's crash or time-out is blamed on.
import { fileURLToPath } from "node:url";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRewardEnvironment, rewardFnJobRequest } from "../../src/reward-fn/reward-env-loader";
import {
  python,
  type RewardFnEngine,
  type ScriptedTurn,
  startRewardFnEngine,
  submit,
} from "./support/reward-fn-engine";
import { verifierJob } from "./support/reward-fn-jobs";

const MATH_VERIFY = fileURLToPath(new URL("../../../../environments/math-verify/", import.meta.url));

const EXACT =
  "def compute_score(solution_str, ground_truth, extra_info=None):\n    return float(solution_str.strip() == ground_truth)\n";

/** Verifiers by task id, each with the script its policy follows. */
const VERIFIERS: Array<{ job: ReturnType<typeof verifierJob>; turns: ScriptedTurn[] }> = [
  {
    job: verifierJob(
      "sig-verl",
      "def compute_score(data_source, solution_str, ground_truth, extra_info):\n    return {'score': float(solution_str == ground_truth), 'ds': data_source, 'idx': extra_info['index'], 'nan': float('nan')}\n",
    ),
    turns: [submit("42")],
  },
  { job: verifierJob("sig-short", EXACT), turns: [submit("42")] },
  {
    job: verifierJob(
      "sig-kwargs",
      "def compute_score(solution_str, **kwargs):\n    return {'score': 1.0 if solution_str == kwargs['ground_truth'] else 0.0, 'keys': sorted(kwargs)}\n",
    ),
    turns: [submit("42")],
  },
  {
    job: verifierJob(
      "sig-posonly",
      "def compute_score(solution_str, ground_truth, /, extra_info=None):\n    return solution_str == ground_truth\n",
    ),
    turns: [submit("42")],
  },
  {
    job: verifierJob("sig-other-name", "def grade(solution_str, ground_truth):\n    return 0.25\n", {
      function: "grade",
    }),
    turns: [submit("42")],
  },
  {
    job: verifierJob(
      "sig-unknown-param",
      "def compute_score(solution_str, ground_truth, tokenizer):\n    return 1.0\n",
      { exceptionMeansWrong: true },
    ),
    turns: [submit("42")],
  },
  {
    job: verifierJob("sig-missing", EXACT, { function: "score", exceptionMeansWrong: true }),
    turns: [submit("42")],
  },
  {
    job: verifierJob("returns-none", "def compute_score(solution_str, ground_truth):\n    return None\n"),
    turns: [],
  },
  {
    job: verifierJob(
      "timeout",
      "def compute_score(solution_str, ground_truth):\n    while True:\n        pass\n",
      {
        timeLimitMs: 1_500,
        exceptionMeansWrong: true,
      },
    ),
    turns: [submit("42")],
  },
  {
    job: verifierJob(
      "crash",
      "def compute_score(solution_str, ground_truth):\n    return float(int(solution_str) == int(ground_truth))\n",
    ),
    turns: [submit("forty-two")],
  },
  {
    job: verifierJob(
      "crash-means-wrong",
      "def compute_score(solution_str, ground_truth):\n    return float(int(solution_str) == int(ground_truth))\n",
      { exceptionMeansWrong: true },
    ),
    turns: [submit("forty-two")],
  },
  {
    job: verifierJob(
      "process-dies",
      "import os\ndef compute_score(solution_str, ground_truth):\n    os._exit(3)\n",
      { exceptionMeansWrong: true },
    ),
    turns: [submit("42")],
  },
  {
    job: verifierJob(
      "turn-rewards",
      "def compute_score(solution_str, ground_truth, turns):\n    ran = [t['turn'] for t in turns if any(c['name'] == 'python' for c in t['tool_calls'])]\n    return {'score': float(solution_str == ground_truth), 'turn_rewards': [{'turn': t, 'reward': 0.1, 'label': 'ran python'} for t in ran]}\n",
    ),
    turns: [python("print(6 * 7)"), python("print(42)"), submit("42")],
  },
  {
    job: verifierJob(
      "turn-rewards-outside",
      "def compute_score(solution_str, ground_truth):\n    return {'score': 1.0, 'turn_rewards': [{'turn': 3, 'reward': 1.0}]}\n",
    ),
    turns: [submit("42")],
  },
  {
    job: verifierJob("import-fails", "def compute_score(solution_str, ground_truth)\n    return 1\n", {
      exceptionMeansWrong: true,
    }),
    turns: [submit("42")],
  },
];

describe("the reward-fn handler", () => {
  let rf: RewardFnEngine;
  const finished = new Map<string, TJob>();
  const outcome = (id: string) => {
    const job = finished.get(id);
    return [job?.status, job?.reward, job?.trainable, job?.failure?.kind ?? null];
  };
  const verifierOf = (id: string) =>
    (finished.get(id)?.result as { verifier?: Record<string, unknown> } | undefined)?.verifier;

  beforeAll(async () => {
    rf = await startRewardFnEngine();
    const env = await loadRewardEnvironment(MATH_VERIFY);
    const requests = [];
    for (const task of env.tasks) {
      const gold = String(task.groundTruth);
      rf.script(task.taskId, [submit(`\\boxed{${gold}}`)]);
      requests.push(rewardFnJobRequest(task));
    }
    const [first] = env.tasks;
    if (!first) throw new Error("math-verify has no rows");
    const asTask = (taskId: string) => rewardFnJobRequest({ ...first, taskId });
    rf.script("mv-wrong", [submit("\\boxed{41}")]);
    rf.script("mv-multi-turn", [
      python("print(17 + 25)"),
      { text: "17 + 25 = 42, so the answer is \\boxed{42}." },
    ]);
    rf.script("mv-no-answer", [{ text: "I do not know." }]);
    requests.push(asTask("mv-wrong"), asTask("mv-multi-turn"), asTask("mv-no-answer"));
    for (const v of VERIFIERS) {
      rf.script(v.job.payload.taskId, v.turns);
      requests.push(v.job);
    }
    for (const [taskId, job] of await rf.runJobs(requests)) finished.set(taskId, job);
  }, 700_000);

  afterAll(async () => {
    await rf?.close();
  });

  it("grades every math-verify row's gold answer 1, through the environment's verify.py", () => {
    const rows = [...finished.keys()].filter((id) => /^math-verify-\d\d$/.test(id));
    expect(rows).toHaveLength(20);
    for (const id of rows) expect(outcome(id), id).toEqual(["completed", 1, true, null]);
    expect(finished.get("math-verify-03")?.result).toMatchObject({
      environment: "math-verify",
      solutionSource: "submission",
      verifier: { status: "scored", crashed: false, score: 1, details: { extracted: "7/8" } },
    });
  });

  it("a wrong answer is 0; a multi-turn answer in the last message is graded; no answer is 0", () => {
    expect(outcome("mv-wrong")).toEqual(["completed", 0, true, null]);
    expect(outcome("mv-multi-turn")).toEqual(["completed", 1, true, null]);
    expect(finished.get("mv-multi-turn")?.result).toMatchObject({ solutionSource: "final_message" });
    expect(outcome("mv-no-answer")).toEqual(["completed", 0, true, null]);
  });

  it("calls compute_score by its parameter names: veRL's four, three, **kwargs, positional-only", () => {
    expect(outcome("sig-verl")).toEqual(["completed", 1, true, null]);
    expect(verifierOf("sig-verl")).toMatchObject({ details: { ds: "test/source", idx: 7, nan: "nan" } });
    expect(outcome("sig-short")).toEqual(["completed", 1, true, null]);
    expect(outcome("sig-kwargs")).toEqual(["completed", 1, true, null]);
    expect(verifierOf("sig-kwargs")).toMatchObject({
      details: { keys: ["data_source", "extra_info", "ground_truth"] },
    });
    expect(outcome("sig-posonly")).toEqual(["completed", 1, true, null]);
    expect(outcome("sig-other-name")).toEqual(["completed", 0.25, true, null]);
  });

  it("passes the turns to a compute_score that names them and stores its turn_rewards on the job", () => {
    expect(outcome("turn-rewards")).toEqual(["completed", 1, true, null]);
    expect(finished.get("turn-rewards")?.turnRewards).toEqual([
      { turn: 0, reward: 0.1, label: "ran python" },
      { turn: 1, reward: 0.1, label: "ran python" },
    ]);
    expect(verifierOf("turn-rewards")).toMatchObject({ details: {} });
    expect(outcome("turn-rewards-outside")).toEqual(["failed", null, false, "eval"]);
    expect(finished.get("turn-rewards-outside")?.failure?.message).toBe(
      "the verifier gave a reward to turn 3, but the trajectory has 1 turn (0)",
    );
  });

  it("a verifier that cannot be called, or returns no score, is infrastructure even when exceptions mean wrong", () => {
    expect(outcome("sig-unknown-param")).toEqual(["failed", null, false, "eval"]);
    expect(finished.get("sig-unknown-param")?.failure?.message).toContain("requires parameter 'tokenizer'");
    expect(outcome("sig-missing")).toEqual(["failed", null, false, "eval"]);
    expect(finished.get("sig-missing")?.failure?.message).toContain("verify.py defines no function 'score'");
    expect(outcome("returns-none")).toEqual(["failed", null, false, "eval"]);
    expect(verifierOf("returns-none")).toMatchObject({ status: "bad_score", crashed: true });
    expect(outcome("import-fails")).toEqual(["failed", null, false, "eval"]);
    expect(verifierOf("import-fails")).toMatchObject({ status: "setup_failed", crashed: true });
    expect(outcome("process-dies")).toEqual(["failed", null, false, "eval"]);
    expect(verifierOf("process-dies")).toMatchObject({ status: "crashed", crashed: true });
  });

  it("a verifier time-out is `timeout` and a crash `eval`: no reward, counted as crashes", () => {
    expect(outcome("timeout")).toEqual(["failed", null, false, "timeout"]);
    expect(finished.get("timeout")?.failure).toMatchObject({ stage: "eval" });
    expect(verifierOf("timeout")).toMatchObject({ status: "timed_out", crashed: true });
    expect(outcome("crash")).toEqual(["failed", null, false, "eval"]);
    expect(finished.get("crash")?.failure?.message).toContain("compute_score raised ValueError");
    expect(verifierOf("crash")).toMatchObject({ status: "exception", crashed: true });
  });

  it("an exception on the policy's output is a wrong answer where the environment says so, still counted", () => {
    expect(outcome("crash-means-wrong")).toEqual(["completed", 0, true, null]);
    expect(verifierOf("crash-means-wrong")).toMatchObject({
      status: "exception_means_wrong",
      crashed: true,
      score: 0,
      error: expect.stringContaining("ValueError: invalid literal for int()"),
    });
  });
});

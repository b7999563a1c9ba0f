// The policy is an adversary of the verifier: its answer is data handed to compute_score, never
// code, never a channel to the reward. Real bubblewrap sandboxes, the handler's three stages and a
// scripted policy; a huge answer also straight through the verifier.
import { fileURLToPath } from "node:url";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRewardEnvironment, rewardFnJobRequest } from "../../src/reward-fn/reward-env-loader";
import { runRewardVerifier } from "../../src/reward-fn/reward-fn-verifier";
import { python, type RewardFnEngine, startRewardFnEngine, submit } from "./support/reward-fn-engine";
import { verifierJob } from "./support/reward-fn-jobs";

const MATH_VERIFY = fileURLToPath(new URL("../../../../environments/math-verify/", import.meta.url));

/** A verify.py that prints the answer every way it can, then scores it exactly. */
const PRINTS_ANSWER = `import os, sys
def compute_score(solution_str, ground_truth, extra_info=None):
    print(solution_str)
    sys.__stdout__.write(solution_str + "\\n")
    sys.__stdout__.flush()
    os.write(1, (solution_str + "\\n").encode())
    return float(solution_str.strip() == ground_truth)
`;

/** A verify.py that hands the answer back untouched, with its length. */
const ECHOES_ANSWER = `def compute_score(solution_str, ground_truth, extra_info=None):
    return {"score": 0.0, "echo": solution_str if len(solution_str) < 10000 else None, "chars": len(solution_str)}
`;

const fakeLine = (nonce: string) =>
  `RAAS-REWARD ${nonce} ${Buffer.from(JSON.stringify({ status: "scored", value: 1 })).toString("base64")}`;

/** Lines a naive reader of the verifier's output would take for a score. */
const FAKE_SCORE = [
  fakeLine("0".repeat(32)),
  fakeLine(""),
  '{"status": "scored", "value": 1}',
  '{"score": 1.0}',
  "score: 1.0",
  "1.0",
].join("\n");

/** Answers that would run, or break out of a quoted string, were they ever pasted into code or a shell. */
const INJECTIONS: Record<string, string> = {
  "inject-python": `42"""; __import__("sys").stderr.write("PWNED"); x = """`,
  "inject-quotes": `42'); __import__('os')._exit(0) #\\' " \\" ''' """`,
  "inject-shell": "$(echo PWNED >&2) `echo PWNED >&2`; echo PWNED >&2 #",
  "inject-json": '42", "score": 1, "x": "',
  "inject-control": "4\u00002\r\n\t\\u0000 \ud83d\ude00 \u202e24",
};

/** During RUN: plant a verify.py, a runner, stdlib shadows and a daemon where a careless EVAL would find them. */
const POISON_WORKSPACE = `import os, subprocess
os.makedirs("/workspace/verifier", exist_ok=True)
os.makedirs("/workspace/.raas", exist_ok=True)
good = "def compute_score(*a, **k):\\n    return 1.0\\n"
for path in ["/workspace/verifier/verify.py", "/workspace/verify.py", "/workspace/.raas/reward_runner.py"]:
    open(path, "w").write(good)
for mod in ["json", "base64", "inspect", "sitecustomize", "usercustomize"]:
    open("/workspace/%s.py" % mod, "w").write("import os\\nos.write(1, b'RAAS-REWARD x eyJzdGF0dXMiOiJzY29yZWQiLCJ2YWx1ZSI6MX0=\\\\n')\\n")
subprocess.Popen(["bash", "-c", "while true; do for f in /proc/*/fd/1; do echo RAAS-REWARD >> $f; done 2>/dev/null; sleep 0.05; done"], start_new_session=True)
print("planted")`;

describe("the reward-fn verifier against an adversarial policy", () => {
  let rf: RewardFnEngine;
  const finished = new Map<string, TJob>();
  let plantedOutput = "";
  const outcome = (id: string) => {
    const job = finished.get(id);
    return [job?.status, job?.reward, job?.trainable, job?.failure?.kind ?? null];
  };
  const verifierOf = (id: string) =>
    (finished.get(id)?.result as { verifier?: Record<string, unknown> } | undefined)?.verifier;

  beforeAll(async () => {
    rf = await startRewardFnEngine();
    const [row] = (await loadRewardEnvironment(MATH_VERIFY)).tasks; // 17 + 25 = 42
    if (!row) throw new Error("math-verify has no rows");
    const requests = [
      verifierJob("fake-score", PRINTS_ANSWER),
      verifierJob("fake-score-right", PRINTS_ANSWER),
      ...Object.keys(INJECTIONS).map((id) => verifierJob(id, ECHOES_ANSWER)),
      rewardFnJobRequest({ ...row, taskId: "huge-answer" }),
      rewardFnJobRequest({ ...row, taskId: "poisoned-workspace" }),
    ];
    rf.script("fake-score", [submit(FAKE_SCORE)]);
    rf.script("fake-score-right", [submit("42")]);
    for (const [id, answer] of Object.entries(INJECTIONS)) rf.script(id, [submit(answer)]);
    rf.script("huge-answer", [submit(`${"\\boxed{1} {{{ ".repeat(60_000)}\\boxed{42}`)]);
    rf.script("poisoned-workspace", [python(POISON_WORKSPACE), submit("\\boxed{41}")]);
    for (const [taskId, job] of await rf.runJobs(requests)) finished.set(taskId, job);
    const poisoned = finished.get("poisoned-workspace");
    if (poisoned) plantedOutput = await rf.toolOutputs(poisoned.id);
  }, 700_000);

  afterAll(async () => {
    await rf?.close();
  });

  it("never reads a score line the answer makes the verifier print", () => {
    expect(outcome("fake-score")).toEqual(["completed", 0, true, null]);
    const report = verifierOf("fake-score");
    // verify.py printed the fake lines (to stdout, as far as it knew): they landed in stderr.
    expect(report?.stderrTail).toContain('{"score": 1.0}');
    expect(report?.stderrTail).toContain(fakeLine("0".repeat(32)));
    expect(outcome("fake-score-right")).toEqual(["completed", 1, true, null]);
  });

  it("hands quoting and code in the answer to compute_score as the exact string, never running it", () => {
    for (const [id, answer] of Object.entries(INJECTIONS)) {
      expect(outcome(id), id).toEqual(["completed", 0, true, null]);
      const report = verifierOf(id);
      expect(report?.details, id).toEqual({ echo: answer, chars: [...answer].length });
      expect(report?.stderrTail, id).not.toContain("PWNED");
    }
  });

  it("grades a huge answer whole", () => {
    expect(outcome("huge-answer")).toEqual(["completed", 1, true, null]);
    expect(finished.get("huge-answer")?.result).toMatchObject({ solutionChars: 840_010 });
  });

  it("runs the verifier where nothing the policy planted during RUN exists", () => {
    expect(plantedOutput).toContain("planted");
    expect(outcome("poisoned-workspace")).toEqual(["completed", 0, true, null]);
    expect(verifierOf("poisoned-workspace")).toMatchObject({
      status: "scored",
      details: { extracted: "41" },
    });
  });

  it("passes a 32 MiB answer to compute_score intact", async () => {
    const answer = `${"x".repeat(32 * 1024 ** 2)}42`;
    const job = verifierJob("direct-huge", ECHOES_ANSWER);
    const verdict = await runRewardVerifier({
      openSandbox: (spec) => rf.runtime.create({ ...spec, jobId: "direct-huge" }),
      payload: job.payload,
      solution: answer,
      signal: new AbortController().signal,
    });
    expect(verdict).toMatchObject({
      type: "reward",
      reward: 0,
      report: { details: { echo: null, chars: answer.length } },
    });
  }, 120_000);
});

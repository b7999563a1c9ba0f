import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { failureOf } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { loadRewardEnvironment, rewardFnJobRequest } from "../../src/reward-fn/reward-env-loader";

const MATH_VERIFY = fileURLToPath(new URL("../../../../environments/math-verify/", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "raas-reward-env-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** An environment directory named `env` (inside a fresh parent) with the given files. */
function envDir(files: Record<string, string>): string {
  count += 1;
  const dir = join(root, String(count), "env");
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

const VERIFY = "def compute_score(solution_str, ground_truth, extra_info=None):\n    return 1.0\n";
const ROW = JSON.stringify({ prompt: "What is 1 + 1?", ground_truth: "2" });

async function loadError(dir: string): Promise<string> {
  const error = await loadRewardEnvironment(dir).then(
    () => null,
    (e: unknown) => e,
  );
  const failure = failureOf(error);
  expect(failure).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
  return failure?.message ?? "";
}

describe("loadRewardEnvironment", () => {
  it("reads the shipped math-verify environment: 20 rows in veRL's shape", async () => {
    const env = await loadRewardEnvironment(MATH_VERIFY);
    expect(env.name).toBe("math-verify");
    expect(env.tasks).toHaveLength(20);
    const first = env.tasks[0];
    expect(first).toMatchObject({
      taskId: "math-verify-00",
      environment: "math-verify",
      prompt: "What is 17 + 25?",
      dataSource: "raas/math-verify",
      groundTruth: "42",
      extraInfo: { split: "train", index: 0 },
      verifier: { function: "compute_score", timeLimitMs: 20_000, exceptionMeansWrong: false },
      agent: { maxTurns: 8 },
    });
    expect(first?.systemPrompt).toContain("\\boxed{...}");
    expect(first?.verifier.source).toContain("def compute_score(data_source, solution_str, ground_truth");
    expect(rewardFnJobRequest(first!)).toMatchObject({ kind: "reward-fn", timeoutsMs: { eval: 140_000 } });
  });

  it("defaults: data.jsonl, verify.py, compute_score, 30 s, exceptions are the verifier's failure", async () => {
    const dir = envDir({ "environment.toml": "", "data.jsonl": `${ROW}\n\n`, "verify.py": VERIFY });
    const env = await loadRewardEnvironment(dir);
    expect(env.tasks).toEqual([
      expect.objectContaining({
        taskId: "env-1",
        environment: "env",
        dataSource: "env",
        groundTruth: "2",
        extraInfo: null,
        verifier: {
          source: VERIFY,
          function: "compute_score",
          timeLimitMs: 30_000,
          exceptionMeansWrong: false,
        },
      }),
    ]);
  });

  it("names the file and the field of a malformed manifest", async () => {
    const files = { "data.jsonl": ROW, "verify.py": VERIFY };
    expect(
      await loadError(envDir({ ...files, "environment.toml": "[verifier]\nexception_means_wrong = 1\n" })),
    ).toBe("env/environment.toml: verifier.exception_means_wrong: expected boolean, received number");
    expect(
      await loadError(envDir({ ...files, "environment.toml": "[verifier]\nexceptions_mean_wrong = true\n" })),
    ).toMatch(/^env\/environment\.toml: verifier: unrecognized key.*exceptions_mean_wrong/i);
    expect(await loadError(envDir({ ...files, "environment.toml": "dataset = '../x.jsonl'\n" }))).toMatch(
      /^env\/environment\.toml: dataset: a path inside the environment directory/,
    );
    expect(await loadError(envDir({ ...files, "environment.toml": "name = [" }))).toMatch(
      /^env\/environment\.toml: not valid TOML/,
    );
    expect(await loadError(envDir(files))).toMatch(/^env\/environment\.toml: missing/);
  });

  it("names the line and the field of a malformed row", async () => {
    const base = { "environment.toml": "", "verify.py": VERIFY };
    expect(await loadError(envDir({ ...base, "data.jsonl": `${ROW}\n{"prompt": "x"}\n` }))).toBe(
      "env/data.jsonl:2: ground_truth: ground_truth is missing (or reward_model.ground_truth, as veRL writes it)",
    );
    expect(await loadError(envDir({ ...base, "data.jsonl": `${ROW}\n{not json\n` }))).toMatch(
      /^env\/data\.jsonl:2: not valid JSON/,
    );
    expect(
      await loadError(envDir({ ...base, "data.jsonl": '{"prompt": 3, "ground_truth": "1"}\n' })),
    ).toMatch(/^env\/data\.jsonl:1: prompt: /);
    const twice = JSON.stringify({ id: "a", prompt: "p", ground_truth: 1 });
    expect(await loadError(envDir({ ...base, "data.jsonl": `${twice}\n${twice}\n` }))).toBe(
      "env/data.jsonl:2: id a appears twice",
    );
    expect(await loadError(envDir({ ...base, "data.jsonl": "\n" }))).toBe("env/data.jsonl: no rows");
  });

  it("refuses a missing, empty or symlinked verifier", async () => {
    expect(await loadError(envDir({ "environment.toml": "", "data.jsonl": ROW }))).toMatch(
      /^env\/verify\.py: missing/,
    );
    expect(await loadError(envDir({ "environment.toml": "", "data.jsonl": ROW, "verify.py": " \n" }))).toBe(
      "env/verify.py: empty",
    );
    const dir = envDir({ "environment.toml": "", "data.jsonl": ROW });
    writeFileSync(join(dir, "..", "outside.py"), VERIFY);
    symlinkSync(join(dir, "..", "outside.py"), join(dir, "verify.py"));
    expect(await loadError(dir)).toMatch(/^env\/verify\.py: not a regular file/);
  });

  it("takes a chat prompt's system message as the system prompt", async () => {
    const row = JSON.stringify({
      prompt: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "2 + 2?" },
      ],
      reward_model: { ground_truth: ["4", "four"] },
      extra_info: { index: 7 },
    });
    const dir = envDir({
      "environment.toml": "[agent]\nsystem_prompt = 'Env prompt.'\n",
      "data.jsonl": row,
      "verify.py": VERIFY,
    });
    const [task] = (await loadRewardEnvironment(dir)).tasks;
    expect(task).toMatchObject({ prompt: "2 + 2?", systemPrompt: "Be brief.", groundTruth: ["4", "four"] });
  });
});

import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { E2E_TOKENS } from "./e2e-env";

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const MATH_VERIFY = join(ROOT, "environments/math-verify");

const submit = (answer: string) => ({ steps: [{ toolCalls: [{ name: "submit", arguments: { answer } }] }] });

/**
 * The simulator's scripts of the first math-verify tasks, for `raas eval env` runs in the e2e
 * deployments: 00 answered right (42), 01 wrong (156 is right), 02 right (613) — which the
 * crashing copy's verifier (`crashingMathVerifyCopy`) cannot grade.
 */
export const MATH_VERIFY_SCRIPTS = {
  "math-verify-00": submit("\\boxed{42}"),
  "math-verify-01": submit("\\boxed{150}"),
  "math-verify-02": submit("\\boxed{613}"),
};

/**
 * A copy of the shipped math-verify environment whose verifier raises on task 02 (ground truth
 * 613): that task's job fails as `eval`, an infrastructure failure. Sandboxes run as another uid,
 * so the directory is readable by all.
 */
export function crashingMathVerifyCopy(): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "raas-e2e-env-"));
  chmodSync(dir, 0o755);
  const copy = join(dir, "math-verify");
  cpSync(MATH_VERIFY, copy, { recursive: true });
  appendFileSync(
    join(copy, "verify.py"),
    [
      "",
      "_compute_score = compute_score",
      "def compute_score(data_source, solution_str, ground_truth, extra_info=None):",
      '    if str(ground_truth) == "613":',
      '        raise RuntimeError("a verifier bug on this row")',
      "    return _compute_score(data_source, solution_str, ground_truth, extra_info)",
      "",
    ].join("\n"),
  );
  return { path: copy, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the real `raas` CLI against `serverUrl` as the trainer; resolves with its exit status and output. */
export function runRaas(
  serverUrl: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const tsxCli = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsxCli, "apps/cli/src/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, RAAS_URL: serverUrl, RAAS_TOKEN: E2E_TOKENS.trainer, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

import { randomBytes } from "node:crypto";
import type { Sandbox, SandboxSpec } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import { type CanaryCheck, type CanaryPlan, planCanaries, plantCanaries } from "../base/canary/index";
import { WORKSPACE_DIR } from "../swe/swe-shell-scripts";
import { judgeUnittestCanaries } from "./code-canaries";
import type { TCodePayload } from "./code-handler";
import { UNITTEST_RUNNER_PY } from "./code-test-runner.script";
import {
  type CodeCaseResult,
  cpuSecondsFor,
  parseUnittestReport,
  stdioVerdict,
  wallLimitMsFor,
} from "./code-verdict";

const RUNNER_PATH = ".raas/run_unittest.py";
const PRLIMIT = "/usr/bin/prlimit";
/** Bytes of stdout kept per case; expected outputs beyond this cannot match anyway. */
const CASE_OUTPUT_BYTES = 4 * 1024 ** 2;

/** What a hidden-test run found; `canaries` only for unittest suites (stdio runs no test framework). */
export interface HiddenTestsOutcome {
  cases: CodeCaseResult[];
  pythonVersion: string | null;
  canaries: CanaryCheck | null;
}

/** The module the hidden unittest suite is saved as. */
const HIDDEN_MODULE = "test_hidden";

/**
 * Runs a solution's hidden tests in a fresh sandbox, each stdio case (or the unittest suite) as
 * its own non-interactive command in its own jail with the workspace read-only, under a CPU-time
 * limit. The verdict is decided here, on the host, from each command's exit status and captured
 * output — nothing the solution can write (files, background processes, a results file) is read,
 * and whatever a case started is gone before the next one begins. Closes the sandbox it opened.
 */
export async function runHiddenTests(input: {
  openSandbox(spec?: Omit<SandboxSpec, "jobId">): Promise<Sandbox>;
  solutionPath: string;
  solution: string;
  tests: TCodePayload["tests"];
  signal: AbortSignal;
}): Promise<HiddenTestsOutcome> {
  const { tests } = input;
  const files: Record<string, string> = { [input.solutionPath]: input.solution };
  if (tests.kind === "unittest") {
    files["test_hidden.py"] = tests.code;
    files[RUNNER_PATH] = UNITTEST_RUNNER_PY;
  }
  const sandbox = await input.openSandbox({ files });
  try {
    return await gradeIn(sandbox, input);
  } finally {
    // A failing close must not mask the grade; runtimes reap sandboxes anyway.
    await sandbox.close().catch(() => undefined);
  }
}

async function gradeIn(
  sandbox: Sandbox,
  input: { solutionPath: string; tests: TCodePayload["tests"]; signal: AbortSignal },
): Promise<HiddenTestsOutcome> {
  const { tests, signal } = input;
  const probe = await sandbox.exec(["python3", "-c", "import platform; print(platform.python_version())"], {
    timeoutMs: 60_000,
    signal,
  });
  if (probe.exitCode !== 0) {
    // Nothing of the solution ran yet: an unusable interpreter is the grader's problem.
    throw stageFailure(
      "eval",
      `python3 is not usable in the evaluation sandbox (exit ${probe.exitCode}): ${probe.stderr.slice(-400)}`,
    );
  }
  const pythonVersion = probe.stdout.trim() || null;
  const limited = (timeLimitMs: number, argv: string[]) => [
    PRLIMIT,
    `--cpu=${cpuSecondsFor(timeLimitMs)}`,
    ...argv,
  ];
  const env = { PYTHONDONTWRITEBYTECODE: "1" };
  if (tests.kind === "stdio") {
    const cases: CodeCaseResult[] = [];
    for (const [index, testCase] of tests.cases.entries()) {
      const run = await sandbox.exec(limited(tests.timeLimitMs, ["python3", input.solutionPath]), {
        stdin: testCase.input,
        timeoutMs: wallLimitMsFor(tests.timeLimitMs),
        readOnlyWorkspace: true,
        maxOutputBytes: CASE_OUTPUT_BYTES,
        env,
        signal,
      });
      const verdict = stdioVerdict(run, testCase.output, tests.timeLimitMs);
      cases.push({ name: `case-${index}`, durationMs: Math.round(run.durationMs * 10) / 10, ...verdict });
    }
    return { cases, pythonVersion, canaries: null };
  }
  // The solution runs inside the suite's process and could rewrite what it reports: canaries
  // planted in the hidden module (isolated Python, before any of the solution runs) catch that.
  const plan: CanaryPlan = planCanaries({
    style: "unittest",
    root: WORKSPACE_DIR,
    hosts: [{ key: HIDDEN_MODULE, path: `${HIDDEN_MODULE}.py` }],
    testId: (host, local) => `${host.key}.${local}`,
  });
  const plantedHosts = await plantCanaries(sandbox, plan, { timeoutMs: 60_000, signal });
  const nonce = randomBytes(16).toString("hex");
  const run = await sandbox.exec(limited(tests.timeLimitMs, ["python3", RUNNER_PATH]), {
    stdin: `${nonce}\n`,
    timeoutMs: wallLimitMsFor(tests.timeLimitMs),
    readOnlyWorkspace: true,
    env,
    signal,
  });
  const rows = parseUnittestReport(run, nonce, tests.timeLimitMs);
  const { cases, canaries } = judgeUnittestCanaries({
    rows,
    plan,
    plantedHosts,
    timedOut: rows.length === 1 && rows[0]?.status === "timeout" && rows[0].name === "suite",
  });
  return { cases, pythonVersion, canaries };
}

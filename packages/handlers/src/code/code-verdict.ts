import type { SandboxExecResult } from "@raas/engine";

/** One graded test case, as the job result reports it. */
export interface CodeCaseResult {
  name: string;
  /** stdio: passed | wrong_answer | runtime_error | timeout; unittest: passed | failed | error | timeout. */
  status: string;
  durationMs: number;
  detail: string;
}

/** Exit status of a command the kernel stopped for CPU time (SIGXCPU) or killed (SIGKILL), as 128 + n. */
const CPU_LIMIT_EXITS: readonly number[] = [128 + 24, 128 + 9];

/**
 * A case's time limit is CPU time (RLIMIT_CPU, whole seconds, rounded up), so a loaded machine
 * never turns an honest solution into a timeout; the wall-clock limit is only a backstop for
 * programs that sleep or block, generous enough that load alone never reaches it.
 */
export function cpuSecondsFor(timeLimitMs: number): number {
  return Math.max(1, Math.ceil(timeLimitMs / 1_000));
}

export function wallLimitMsFor(timeLimitMs: number): number {
  return Math.max(timeLimitMs * 4, timeLimitMs + 10_000);
}

/** Trailing whitespace per line and trailing empty lines do not matter; CRLF is LF. */
function normalizeOutput(text: string): string {
  const lines = text
    .replaceAll("\r\n", "\n")
    .split("\n")
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  return lines.join("\n");
}

/** The verdict of one stdio case, decided here from the raw exit status and stdout. */
export function stdioVerdict(
  run: SandboxExecResult,
  expected: string,
  timeLimitMs: number,
): Pick<CodeCaseResult, "status" | "detail"> {
  if (run.timedOut || (run.exitCode !== null && CPU_LIMIT_EXITS.includes(run.exitCode))) {
    return { status: "timeout", detail: `exceeded ${timeLimitMs} ms` };
  }
  if (run.exitCode !== 0) {
    return {
      status: "runtime_error",
      detail: `exit ${run.exitCode ?? run.signal}: ${run.stderr.slice(-400)}`,
    };
  }
  if (normalizeOutput(run.stdout) !== normalizeOutput(expected)) {
    return { status: "wrong_answer", detail: `got ${JSON.stringify(run.stdout.slice(0, 200))}` };
  }
  return { status: "passed", detail: "" };
}

const ROW = /^RAAS_ROW ([0-9a-f]{32}) (passed|failed|error) (\d+(?:\.\d+)?) (\S*) (\S*)$/;

/**
 * Rows of the unittest runner's report: only lines carrying this run's nonce, which the runner
 * reads from stdin after the suite ran and nothing else of the run was alive. A run that ends
 * without a report (the solution exited the interpreter, or broke it) grades as one error row.
 */
export function parseUnittestReport(
  run: SandboxExecResult,
  nonce: string,
  timeLimitMs: number,
): CodeCaseResult[] {
  if (run.timedOut || (run.exitCode !== null && CPU_LIMIT_EXITS.includes(run.exitCode))) {
    return [
      {
        name: "suite",
        status: "timeout",
        durationMs: timeLimitMs,
        detail: `the suite exceeded ${timeLimitMs} ms`,
      },
    ];
  }
  const rows: CodeCaseResult[] = [];
  for (const line of run.stdout.split("\n")) {
    const match = ROW.exec(line);
    if (!match || match[1] !== nonce) continue;
    rows.push({
      name: Buffer.from(match[4] ?? "", "base64").toString("utf8"),
      status: match[2] as string,
      durationMs: Number(match[3]),
      detail: Buffer.from(match[5] ?? "", "base64").toString("utf8"),
    });
  }
  const finished = run.stdout.split("\n").includes(`RAAS_DONE ${nonce}`);
  if (finished && run.exitCode === 0 && rows.length > 0) return rows;
  const reason = finished
    ? "no tests ran"
    : `the test run ended without a report (exit ${run.exitCode ?? run.signal})`;
  return [
    {
      name: "suite",
      status: "error",
      durationMs: run.durationMs,
      detail: `${reason}: ${run.stderr.slice(-400)}`,
    },
  ];
}

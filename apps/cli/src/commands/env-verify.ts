import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OracleCheckReport } from "@raas/handlers";
import { bar, printJson, table } from "../output";
import { resolveJudgeBackends } from "./env-judge-backends";

/** Where the sandbox runtime's binaries are looked up (the CLI never reads PATH for them). */
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export interface EnvVerifyOptions {
  concurrency?: string;
  sandbox?: string;
  json?: boolean;
  /** `--judge-backend`, each entry one backend (comma lists already split). */
  judgeBackend?: string[];
}

/** A judge environment checked without a judge backend: the caller must pass one (exit 2). */
export class JudgeBackendMissingError extends Error {
  constructor(environment: string) {
    super(
      `${environment} is a judge environment: its answers are graded by a judge model, so pass --judge-backend <url> (an OpenAI-compatible server of the judge model, e.g. --judge-backend http://judge:8000#Qwen/Qwen3-32B; repeat it or give a comma list for several)`,
    );
    this.name = "JudgeBackendMissingError";
  }
}

function concurrencyOf(value: string | undefined): number {
  if (value === undefined) return 4;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`--concurrency: expected a whole number from 1 to 64, got ${value}`);
  return n;
}

function sandboxKindOf(value: string | undefined): "bubblewrap" | "local" {
  if (value === undefined || value === "bubblewrap" || value === "local") return value ?? "bubblewrap";
  throw new Error(`--sandbox: expected bubblewrap or local, got ${value}`);
}

/**
 * Runs the oracle check of the environment in `dir` on this machine: its own engine in memory,
 * sandboxes of the chosen runtime (bubblewrap by default), no server; a judge environment graded
 * by the `--judge-backend` servers (a `JudgeBackendMissingError` without one, before anything
 * runs). Progress goes to stderr.
 */
export async function checkEnvironmentDir(dir: string, values: EnvVerifyOptions): Promise<OracleCheckReport> {
  const concurrency = concurrencyOf(values.concurrency);
  const kind = sandboxKindOf(values.sandbox);
  const [
    { loadEnvironment, runOracleCheck },
    { createSandboxRuntime, findExecutable },
    { createMcpToolProvider },
  ] = await Promise.all([import("@raas/handlers"), import("@raas/sandbox"), import("@raas/mcp")]);
  if (kind === "bubblewrap" && !findExecutable("bwrap", SYSTEM_PATH))
    throw new Error("sandbox runtime bubblewrap is not installed (apt-get install -y bubblewrap)");
  const environment = await loadEnvironment(dir);
  const judgeEntries = values.judgeBackend ?? [];
  if (environment.kind === "judge" && judgeEntries.length === 0)
    throw new JudgeBackendMissingError(environment.name);
  const quiet = values.json === true;
  if (environment.kind !== "judge" && judgeEntries.length > 0 && !quiet)
    process.stderr.write(
      `--judge-backend ignored: ${environment.name} is a ${environment.kind} environment\n`,
    );
  const judge =
    environment.kind === "judge"
      ? new (await import("@raas/inference")).JudgeBackendPool({
          backends: await resolveJudgeBackends(judgeEntries),
        })
      : null;
  if (!quiet)
    process.stderr.write(
      `checking ${environment.kind} environment ${environment.name}: ${environment.tasks.length} tasks, oracle and no-op each\n`,
    );
  const baseDir = mkdtempSync(join(tmpdir(), "raas-env-verify-"));
  const runtime = createSandboxRuntime({ kind, searchPath: SYSTEM_PATH, baseDir, warn: () => {} });
  try {
    const report = await runOracleCheck({
      environment,
      sandboxRuntime: runtime,
      // Tool servers an environment declares (`[mcp]`) speak MCP, started in each task's sandbox.
      toolServers: createMcpToolProvider(),
      ...(judge ? { judge } : {}),
      concurrency,
      onProgress: ({ finished, total, failing }) => {
        if (!quiet)
          process.stderr.write(
            `\rverifying ${bar(finished, total)} ${finished}/${total} jobs  not completed ${failing}`,
          );
      },
    });
    if (!quiet) process.stderr.write("\n");
    return report;
  } finally {
    await judge?.close();
    await runtime.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
  }
}

const rewardText = (reward: number | null) => (reward === null ? "-" : String(reward));

/** The oracle table (task, oracle reward, no-op reward, verdict, seconds), then what failed and why. */
export function printOracleReport(report: OracleCheckReport, json: boolean): void {
  if (json) {
    printJson(report);
    return;
  }
  const rows = report.rows.map((row) => ({
    task: row.task,
    oracle: rewardText(row.oracleReward),
    "no-op": rewardText(row.noopReward),
    verdict: row.verdict,
    seconds: row.seconds.toFixed(1),
  }));
  const lines = [table(rows)];
  for (const row of report.rows)
    for (const reason of row.reasons)
      lines.push(`${row.verdict === "fail" ? "FAIL" : "skip"} ${row.task}: ${reason}`);
  lines.push(
    `${report.environment} (${report.kind}): ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped in ${report.seconds.toFixed(1)} s`,
  );
  console.log(lines.join("\n"));
}

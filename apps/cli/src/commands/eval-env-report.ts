import type { EnvironmentBenchmarkResult } from "@raas/handlers";
import { printJson, table } from "../output";

/** What `raas eval env` evaluated and where the run went. */
export interface EvalEnvRun {
  runId: string;
  model: string;
  environment: { name: string; kind: string; dir: string };
  isStored: boolean;
}

/** Counts over a run's results: errors earned no reward and are not in the mean. */
function summarize(results: readonly EnvironmentBenchmarkResult[]) {
  const rewards = results.flatMap((result) => (result.detail.reward === null ? [] : [result.detail.reward]));
  return {
    total: results.length,
    graded: rewards.length,
    resolved: results.filter((result) => result.resolved).length,
    errors: results.length - rewards.length,
    meanReward:
      rewards.length === 0 ? null : rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length,
  };
}

const rewardText = (reward: number | null) => (reward === null ? "-" : String(Number(reward.toFixed(4))));

/**
 * Prints the outcome: JSON with `--json`; else a row per task (reward, resolved / unresolved /
 * error, job), the counts, and each error with its reason.
 */
export function printEvalEnvOutcome(
  run: EvalEnvRun,
  results: readonly EnvironmentBenchmarkResult[],
  json: boolean,
): void {
  const summary = summarize(results);
  if (json) {
    printJson({
      runId: run.runId,
      stored: run.isStored,
      model: run.model,
      environment: run.environment,
      summary,
      results,
    });
    return;
  }
  const rows = results.map((result) => ({
    task: result.instanceId,
    reward: rewardText(result.detail.reward),
    result: result.detail.error !== null ? "error" : result.resolved ? "resolved" : "unresolved",
    job: result.jobId,
  }));
  const lines = [table(rows)];
  const percent = summary.total === 0 ? 0 : (summary.resolved / summary.total) * 100;
  lines.push(
    `${run.environment.name} (${run.environment.kind}): resolved ${summary.resolved}/${summary.total} (${percent.toFixed(1)} %)  ` +
      `mean reward ${rewardText(summary.meanReward)} over ${summary.graded} graded  errors ${summary.errors}`,
  );
  for (const result of results)
    if (result.detail.error !== null) lines.push(`  error ${result.instanceId}: ${result.detail.error}`);
  if (run.isStored) lines.push(`stored run: ${run.runId}   (GET /api/v1/benchmarks/${run.runId})`);
  console.log(lines.join("\n"));
}

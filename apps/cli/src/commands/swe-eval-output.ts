import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SweBenchmarkOutcome } from "@raas/handlers";

/** The CLI's short summary (`--json` prints it; the SWE-bench summary is the report file). */
export interface SweEvalCounts {
  total: number;
  submitted: number;
  completed: number;
  resolved: number;
  unresolved: number;
  emptyPatch: number;
  errors: number;
  resolvedRate: number;
}

export function sweEvalCounts(outcome: SweBenchmarkOutcome): SweEvalCounts {
  const { summary } = outcome;
  return {
    total: summary.total_instances,
    submitted: summary.submitted_instances,
    completed: summary.completed_instances,
    resolved: summary.resolved_instances,
    unresolved: summary.unresolved_instances,
    emptyPatch: summary.empty_patch_instances,
    errors: summary.error_instances,
    resolvedRate: summary.total_instances === 0 ? 0 : summary.resolved_instances / summary.total_instances,
  };
}

/**
 * Writes a run in SWE-bench's layout under `outDir` (`<model>.<run_id>.json`, and
 * `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json` per completed instance) plus
 * `predictions.jsonl` and `reports.jsonl` (RaaS's full reports). Returns the summary's path.
 */
export async function writeSweEvalOutput(input: {
  outDir: string;
  runId: string;
  model: string;
  outcome: SweBenchmarkOutcome;
}): Promise<{ summaryPath: string; predictionsPath: string }> {
  const { sweRunFiles } = await import("@raas/handlers");
  const { outcome } = input;
  const completed = new Set(outcome.summary.completed_ids);
  const files = sweRunFiles({
    runId: input.runId,
    model: input.model,
    summary: outcome.summary,
    reports: outcome.reports.filter((report) => completed.has(report.instanceId)),
  });
  mkdirSync(input.outDir, { recursive: true });
  for (const file of files) {
    const path = join(input.outDir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  const predictionsPath = join(input.outDir, "predictions.jsonl");
  writeFileSync(predictionsPath, outcome.predictionsJsonl);
  writeFileSync(
    join(input.outDir, "reports.jsonl"),
    outcome.reports.map((report) => `${JSON.stringify(report)}\n`).join(""),
  );
  return { summaryPath: join(input.outDir, (files.at(-1) as { path: string }).path), predictionsPath };
}

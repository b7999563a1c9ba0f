import type { SweBenchReportEntry, SweEvalReport } from "./swe-report.types";
import { toSweBenchReportEntry } from "./swe-report-builder";

/** One line of a SWE-bench predictions file. */
export interface SwePrediction {
  instance_id: string;
  model_name_or_path: string;
  model_patch: string | null;
}

/** Predictions JSONL (`instance_id, model_name_or_path, model_patch`), one line per report. */
export function formatPredictionsJsonl(
  model: string,
  predictions: ReadonlyArray<{ instanceId: string; modelPatch: string | null }>,
): string {
  const lines = predictions.map((prediction) =>
    JSON.stringify({
      instance_id: prediction.instanceId,
      model_name_or_path: model,
      model_patch: prediction.modelPatch,
    } satisfies SwePrediction),
  );
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

/** SWE-bench's report: `{<instance_id>: {patch_is_None, patch_exists, …, tests_status}}`, ids sorted. */
export function buildSweBenchReport(reports: readonly SweEvalReport[]): Record<string, SweBenchReportEntry> {
  const sorted = [...reports].sort((a, b) =>
    a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0,
  );
  return Object.fromEntries(sorted.map((report) => [report.instanceId, toSweBenchReportEntry(report)]));
}

/** Totals for a run summary. */
export function summarizeSweReports(reports: readonly SweEvalReport[]): {
  total: number;
  resolved: number;
  emptyPatch: number;
  failedApplyPatch: number;
  testTimeout: number;
  resolvedRate: number;
} {
  const count = (predicate: (report: SweEvalReport) => boolean) => reports.filter(predicate).length;
  const resolved = count((report) => report.resolved);
  return {
    total: reports.length,
    resolved,
    emptyPatch: count((report) => report.emptyPatch),
    failedApplyPatch: count((report) => report.failedApplyPatch),
    testTimeout: count((report) => report.testTimeout),
    resolvedRate: reports.length === 0 ? 0 : resolved / reports.length,
  };
}

import type { SweBenchReportEntry, SweEvalReport } from "./swe-report.types";
import { isEmptyPatch, toSweBenchReportEntry } from "./swe-report-builder";

/** SWE-bench's run summary `<model>.<run_id>.json` (schema_version 2). */
export interface SweRunSummary {
  total_instances: number;
  submitted_instances: number;
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  empty_patch_instances: number;
  error_instances: number;
  completed_ids: string[];
  incomplete_ids: string[];
  empty_patch_ids: string[];
  submitted_ids: string[];
  resolved_ids: string[];
  unresolved_ids: string[];
  error_ids: string[];
  schema_version: 2;
}

/** What became of one submitted instance: graded (a report) or not (an error message). */
export type SweInstanceOutcome = { report: SweEvalReport } | { error: string };

export interface BuildSweRunSummaryInput {
  /** Every instance id of the dataset. */
  datasetIds: readonly string[];
  /**
   * Submitted instances: id → model patch (null: none; undefined: not known, e.g. a rollout that
   * failed before its diff was taken — counted as submitted with a patch).
   */
  predictions: ReadonlyMap<string, string | null | undefined>;
  /** Outcomes of the submitted instances with a non-empty patch (missing: never finished → error). */
  outcomes: ReadonlyMap<string, SweInstanceOutcome>;
}

const sorted = (ids: Iterable<string>) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Counts a run as SWE-bench's `make_run_report` does: dataset instances without a prediction are
 * incomplete; a prediction whose patch is empty or null is an empty patch (never run, neither
 * completed nor an error); a graded instance is completed, and resolved or unresolved; a submitted
 * non-empty patch without a grade is an error.
 */
export function buildSweRunSummary(input: BuildSweRunSummaryInput): SweRunSummary {
  const completed: string[] = [];
  const incomplete: string[] = [];
  const empty: string[] = [];
  const resolved: string[] = [];
  const unresolved: string[] = [];
  const errors: string[] = [];
  for (const id of input.datasetIds) {
    if (!input.predictions.has(id)) {
      incomplete.push(id);
      continue;
    }
    const patch = input.predictions.get(id);
    if (patch !== undefined && isEmptyPatch(patch)) {
      empty.push(id);
      continue;
    }
    const outcome = input.outcomes.get(id);
    if (outcome === undefined || "error" in outcome) {
      errors.push(id);
      continue;
    }
    completed.push(id);
    (outcome.report.resolved ? resolved : unresolved).push(id);
  }
  return {
    total_instances: input.datasetIds.length,
    submitted_instances: input.predictions.size,
    completed_instances: completed.length,
    resolved_instances: resolved.length,
    unresolved_instances: unresolved.length,
    empty_patch_instances: empty.length,
    error_instances: errors.length,
    completed_ids: sorted(completed),
    incomplete_ids: sorted(incomplete),
    empty_patch_ids: sorted(empty),
    submitted_ids: sorted(input.predictions.keys()),
    resolved_ids: sorted(resolved),
    unresolved_ids: sorted(unresolved),
    error_ids: sorted(errors),
    schema_version: 2,
  };
}

/** SWE-bench's directory name of a model: only `/` is replaced (by `__`). */
export function sweModelDirName(model: string): string {
  const name = model.replaceAll("/", "__");
  if (name === "" || name === "." || name === "..")
    throw new Error(`model name "${model}" cannot name a directory`);
  return name;
}

/** Rejects ids that would leave their directory (`..`, `/`) when used as a path segment. */
function pathSegment(value: string, what: string): string {
  if (value === "" || value === "." || value === ".." || value.includes("/") || value.includes("\0"))
    throw new Error(`${what} "${value}" cannot name a directory`);
  return value;
}

/** Files of a run in SWE-bench's layout, relative to the output directory, with their contents. */
export function sweRunFiles(input: {
  runId: string;
  model: string;
  summary: SweRunSummary;
  /** Reports of completed instances (others get no directory, as in SWE-bench). */
  reports: readonly SweEvalReport[];
}): Array<{ path: string; content: string }> {
  const model = sweModelDirName(input.model);
  const runId = pathSegment(input.runId, "run id");
  const files = input.reports.map((report) => {
    const entry: Record<string, SweBenchReportEntry> = {
      [report.instanceId]: toSweBenchReportEntry(report),
    };
    const dir = `logs/run_evaluation/${runId}/${model}/${pathSegment(report.instanceId, "instance id")}`;
    return [
      { path: `${dir}/report.json`, content: `${JSON.stringify(entry, null, 4)}\n` },
      { path: `${dir}/patch.diff`, content: report.modelPatch ?? "" },
      { path: `${dir}/test_output.txt`, content: report.logTail },
    ];
  });
  return [
    ...files.flat(),
    { path: `${model}.${runId}.json`, content: `${JSON.stringify(input.summary, null, 4)}\n` },
  ];
}

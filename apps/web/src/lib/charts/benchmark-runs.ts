/** What the benchmark pages read of a stored run (`benchmarks.list` / `benchmarks.get`). */
export interface TRunCounts {
  id: string;
  model: string;
  dataset: string;
  totalCount: number;
  resolvedCount: number;
}

/** Most runs one comparison shows side by side (the matrix stays readable at 1280 px). */
export const MAX_COMPARED_RUNS = 8;

/**
 * The parameter count a model name states, e.g. `Qwen/Qwen3-14B` → `14B`, `Qwen3-30B-A3B` → `30B`
 * (total, not active), `Qwen3-0.6B` → `0.6B`; null when the name states none.
 */
export function modelSize(model: string): string | null {
  const match = /(?:^|[^A-Za-z0-9.])(\d+(?:\.\d+)?)([BM])(?![A-Za-z])/i.exec(model);
  if (!match) return null;
  return `${match[1]}${match[2]?.toUpperCase()}`;
}

/** Resolved instances over instances with a result; null for a run with no result yet. */
export function resolvedFraction(run: Pick<TRunCounts, "totalCount" | "resolvedCount">): number | null {
  return run.totalCount === 0 ? null : run.resolvedCount / run.totalCount;
}

/** Runs of one model and/or dataset (undefined: any). */
export function filterRuns<TRun extends TRunCounts>(
  runs: readonly TRun[],
  filters: { model?: string | undefined; dataset?: string | undefined },
): TRun[] {
  return runs.filter(
    (run) =>
      (filters.model === undefined || run.model === filters.model) &&
      (filters.dataset === undefined || run.dataset === filters.dataset),
  );
}

/** The distinct values of a field over the runs, sorted, for a filter's options. */
export function distinctValues(runs: readonly TRunCounts[], field: "model" | "dataset"): string[] {
  return [...new Set(runs.map((run) => run[field]))].sort((a, b) => a.localeCompare(b));
}

/**
 * The run ids of a comparison URL's `runs` parameter (`a,b,c`): trimmed, empty and repeated ids
 * dropped, order kept, at most `MAX_COMPARED_RUNS`.
 */
export function parseRunIds(param: string | readonly string[] | undefined): string[] {
  const joined = typeof param === "string" ? param : (param ?? []).join(",");
  const ids = joined
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  return [...new Set(ids)].slice(0, MAX_COMPARED_RUNS);
}

/** The shareable URL comparing these runs (with `isSplitOnly`, only the instances they disagree on). */
export function compareHref(runIds: readonly string[], isSplitOnly = false): string {
  const runs = runIds.map(encodeURIComponent).join(",");
  return `/benchmarks/compare?runs=${runs}${isSplitOnly ? "&only=split" : ""}`;
}

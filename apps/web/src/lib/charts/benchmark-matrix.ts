/** One stored result as the matrix needs it (`benchmarks.results` items). */
export interface TMatrixResult {
  instanceId: string;
  resolved: boolean;
  jobId: string | null;
}

/** A run's cell for one instance: its result, or null when the run has none for it. */
export type TMatrixCell = { resolved: boolean; jobId: string | null } | null;

export interface TMatrixRow {
  instanceId: string;
  /** One cell per run, in the order the runs were given. */
  cells: TMatrixCell[];
  /** How many of the runs resolved it. */
  solvedBy: number;
  /** True when the runs with a result for it do not all agree. */
  isSplit: boolean;
}

export interface TInstanceMatrix {
  rows: TMatrixRow[];
  /** Per run (same order): instances it alone resolved. */
  solvedOnlyBy: number[];
  /** Instances every run resolved / no run resolved (among those with any result). */
  solvedByAll: number;
  solvedByNone: number;
}

/**
 * Which run solved what: one row per instance any run has a result for (sorted by instance id),
 * one cell per run. The basis of the comparison page's matrix and its summary counts.
 */
export function instanceMatrix(resultsByRun: ReadonlyArray<readonly TMatrixResult[]>): TInstanceMatrix {
  const byInstance = new Map<string, TMatrixCell[]>();
  resultsByRun.forEach((results, runIndex) => {
    for (const result of results) {
      let cells = byInstance.get(result.instanceId);
      if (!cells) {
        cells = resultsByRun.map(() => null);
        byInstance.set(result.instanceId, cells);
      }
      cells[runIndex] = { resolved: result.resolved, jobId: result.jobId };
    }
  });
  const solvedOnlyBy = resultsByRun.map(() => 0);
  let solvedByAll = 0;
  let solvedByNone = 0;
  const rows = [...byInstance.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([instanceId, cells]) => {
      const solvedBy = cells.filter((cell) => cell?.resolved === true).length;
      const graded = cells.filter((cell) => cell !== null);
      const solver = cells.findIndex((cell) => cell?.resolved === true);
      if (solvedBy === 1) solvedOnlyBy[solver] = (solvedOnlyBy[solver] ?? 0) + 1;
      if (solvedBy === cells.length) solvedByAll += 1;
      if (solvedBy === 0) solvedByNone += 1;
      return { instanceId, cells, solvedBy, isSplit: solvedBy > 0 && solvedBy < graded.length };
    });
  return { rows, solvedOnlyBy, solvedByAll, solvedByNone };
}

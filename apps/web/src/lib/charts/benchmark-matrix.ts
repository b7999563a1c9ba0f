/** One stored result as the matrix needs it (`benchmarks.results` items). */
export interface TMatrixResult {
  instanceId: string;
  resolved: boolean;
  jobId: string | null;
  /** The evaluator's detail: `reward` (environment runs) and `error` (no grade) are read. */
  detail?: Record<string, unknown> | null;
}

/**
 * A run's cell for one instance: its result — with its reward where the result has one, and why
 * it was not graded when it errored — or null when the run has none for it.
 */
export type TMatrixCell = {
  resolved: boolean;
  jobId: string | null;
  reward: number | null;
  error: string | null;
} | null;

function cellOf(result: TMatrixResult): NonNullable<TMatrixCell> {
  const reward = result.detail?.reward;
  const error = result.detail?.error;
  return {
    resolved: result.resolved,
    jobId: result.jobId,
    reward: typeof reward === "number" ? reward : null,
    error: typeof error === "string" && error !== "" ? error : null,
  };
}

export interface TMatrixRow {
  instanceId: string;
  /** One cell per run, in the order the runs were given. */
  cells: TMatrixCell[];
  /** How many of the runs resolved it. */
  solvedBy: number;
  /** True when the runs with a grade for it do not all agree. */
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
      cells[runIndex] = cellOf(result);
    }
  });
  const solvedOnlyBy = resultsByRun.map(() => 0);
  let solvedByAll = 0;
  let solvedByNone = 0;
  const rows = [...byInstance.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([instanceId, cells]) => {
      const solvedBy = cells.filter((cell) => cell?.resolved === true).length;
      // An error is no grade: it neither agrees nor disagrees.
      const graded = cells.filter((cell) => cell !== null && cell.error === null);
      const solver = cells.findIndex((cell) => cell?.resolved === true);
      if (solvedBy === 1) solvedOnlyBy[solver] = (solvedOnlyBy[solver] ?? 0) + 1;
      if (solvedBy === cells.length) solvedByAll += 1;
      if (solvedBy === 0) solvedByNone += 1;
      return { instanceId, cells, solvedBy, isSplit: solvedBy > 0 && solvedBy < graded.length };
    });
  return { rows, solvedOnlyBy, solvedByAll, solvedByNone };
}

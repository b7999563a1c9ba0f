import { PASS_RATE_BIN_EDGES, type TCurriculumTaskCounts } from "@raas/shared";
import { isRetired } from "./adaptive-sampler";
import { type TaskHistory, windowPassRate } from "./task-history";

export interface CurriculumSummary extends TCurriculumTaskCounts {
  /** Attempted tasks per pass-rate bin (`PASS_RATE_BIN_EDGES`). */
  histogram: number[];
  meanPassRate: number | null;
}

/**
 * Counts a source's tasks (pure): unexplored, active, retired (only under a retiring policy), the
 * pass-rate histogram over the last `windowSize` attempts of attempted tasks and their mean.
 */
export function summarizeTasks(
  tasks: readonly { taskId: string }[],
  history: ReadonlyMap<string, TaskHistory>,
  options: { windowSize: number; retireAfterSolvedInARow: number | null },
): CurriculumSummary {
  const bins = PASS_RATE_BIN_EDGES.length - 1;
  const summary: CurriculumSummary = {
    total: tasks.length,
    unexplored: 0,
    active: 0,
    retired: 0,
    neverSolved: 0,
    alwaysSolved: 0,
    histogram: Array.from({ length: bins }, () => 0),
    meanPassRate: null,
  };
  let sum = 0;
  let attempted = 0;
  for (const task of tasks) {
    const entry = history.get(task.taskId);
    const rate = windowPassRate(entry, options.windowSize);
    if (rate === null) {
      summary.unexplored += 1;
      continue;
    }
    attempted += 1;
    sum += rate;
    if (rate === 0) summary.neverSolved += 1;
    if (rate === 1) summary.alwaysSolved += 1;
    const bin = Math.min(bins - 1, Math.floor(rate * bins));
    summary.histogram[bin] = (summary.histogram[bin] ?? 0) + 1;
    const retires = options.retireAfterSolvedInARow;
    if (retires !== null && isRetired(entry, { retireAfterSolvedInARow: retires })) summary.retired += 1;
    else summary.active += 1;
  }
  summary.meanPassRate = attempted > 0 ? sum / attempted : null;
  return summary;
}

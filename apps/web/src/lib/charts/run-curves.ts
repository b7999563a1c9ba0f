import type { TStep, TStepStats } from "@raas/shared";

/** One selected run and its steps (oldest first), as `runs.list` and `runs.steps` return them. */
export interface TRunSteps {
  run: { id: string; name: string };
  steps: readonly Pick<TStep, "index" | "stats">[];
}

/** A chart cell: a number, a `[low, high]` band, a label, or a gap. */
type TCurveValue = number | [number, number] | string | null;

/** Rows keyed by step index and the series drawn over them. */
export interface TCurveChart {
  rows: Array<Record<string, TCurveValue>>;
  series: Array<{ key: string; label: string; bandKey?: string }>;
}

/** Informative groups over decided groups (DAPO's yield); null before any group was decided. */
export function informativeFraction(stats: TStepStats): number | null {
  return stats.groupsDecided > 0 ? stats.informative / stats.groupsDecided : null;
}

/** Member jobs that failed for infrastructure reasons over jobs submitted; null before any job. */
export function infraFailureRate(stats: TStepStats): number | null {
  return stats.jobsSubmitted > 0 ? stats.waste.infraFailures.jobs / stats.jobsSubmitted : null;
}

/** Groups that failed (a member out of retries) over groups decided; null before any was decided. */
export function failedGroupFraction(stats: TStepStats): number | null {
  return stats.groupsDecided > 0 ? stats.failedGroups / stats.groupsDecided : null;
}

/** The reward band of a step, `[min, max]`, or null before any trajectory was handed out. */
function rewardBand(stats: TStepStats): [number, number] | null {
  return stats.rewardMin === null || stats.rewardMax === null ? null : [stats.rewardMin, stats.rewardMax];
}

/** What one line of an overlay reads from a step's statistics. */
export interface TCurveMetric {
  /** Appended to the run's name in the legend when a chart draws several metrics per run. */
  label?: string;
  value: (stats: TStepStats) => number | null;
  band?: (stats: TStepStats) => [number, number] | null;
}

/**
 * Legend names of the runs: the run's name, with the end of its id added when two selected runs
 * share a name (so overlaid lines stay distinguishable).
 */
export function runLabels(runs: readonly TRunSteps[]): string[] {
  const counts = new Map<string, number>();
  for (const { run } of runs) counts.set(run.name, (counts.get(run.name) ?? 0) + 1);
  return runs.map(({ run }) =>
    (counts.get(run.name) ?? 0) > 1 ? `${run.name} (${run.id.slice(-6)})` : run.name,
  );
}

/**
 * Overlay rows: one row per step index any run has, one series per run and metric (keys `r0m0`,
 * `r0m0band`, …, since ids may hold characters recharts reads as paths). A step a run lacks is a gap.
 */
export function overlayCurves(runs: readonly TRunSteps[], metrics: readonly TCurveMetric[]): TCurveChart {
  const labels = runLabels(runs);
  const byIndex = new Map<number, Record<string, TCurveValue>>();
  const series: TCurveChart["series"] = [];
  runs.forEach(({ steps }, runIndex) => {
    metrics.forEach((metric, metricIndex) => {
      const key = `r${runIndex}m${metricIndex}`;
      const bandKey = metric.band ? `${key}band` : undefined;
      const label = metric.label ? `${labels[runIndex]} · ${metric.label}` : (labels[runIndex] ?? key);
      series.push(bandKey ? { key, label, bandKey } : { key, label });
      for (const step of steps) {
        const row = byIndex.get(step.index) ?? { step: step.index };
        row[key] = metric.value(step.stats);
        if (bandKey && metric.band) row[bandKey] = metric.band(step.stats);
        byIndex.set(step.index, row);
      }
    });
  });
  const rows = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  return { rows, series };
}

/** The curves of the Runs page, each a list of metrics per run. */
export const RUN_CURVES = {
  reward: [
    {
      value: (stats) => stats.rewardMean,
      band: rewardBand,
    },
  ],
  solved: [{ value: (stats) => stats.solvedFraction }],
  informative: [{ value: informativeFraction }],
  tokens: [{ value: (stats) => stats.meanTrajectoryTokens }],
  failures: [
    { label: "infra failures / jobs", value: infraFailureRate },
    { label: "failed groups / decided", value: failedGroupFraction },
  ],
} as const satisfies Record<string, readonly TCurveMetric[]>;

import type { TFailureKind, TStage } from "@raas/shared";
import { FAILURE_KINDS, STAGES } from "../domain";

/** One interval's failures, as `system.stats`' throughput samples carry them. */
export interface TFailureSample {
  atMs: number;
  failures: ReadonlyArray<{ kind: TFailureKind; stage: TStage; count: number }>;
}

/** One kind × stage pair that occurred in the window, with its total there. */
export interface TFailurePair {
  /** Data key of the pair in the chart rows, e.g. `inference_run`. */
  key: string;
  /** Legend label, e.g. `inference in RUN`. */
  label: string;
  kind: TFailureKind;
  stage: TStage;
  count: number;
}

export interface TFailureBreakdown {
  /** One row per interval: `time` (formatted), `atMs`, and a count per pair key (0 when none). */
  rows: Array<Record<string, string | number>>;
  /** The pairs that occurred, kinds in lifecycle-doc order, then stages in lifecycle order. */
  pairs: TFailurePair[];
  /** Failures in the whole window. */
  total: number;
}

function failurePairKey(kind: TFailureKind, stage: TStage): string {
  return `${kind}_${stage}`;
}

/**
 * Failures per interval stacked by kind and stage, for a chart and its table. Only pairs that
 * occurred get a series, so a quiet window draws no empty legend entries.
 */
export function failureBreakdown(
  samples: readonly TFailureSample[],
  formatTime: (atMs: number) => string,
): TFailureBreakdown {
  const totals = new Map<string, number>();
  const rows = samples.map((sample) => {
    const row: Record<string, string | number> = { time: formatTime(sample.atMs), atMs: sample.atMs };
    for (const failure of sample.failures) {
      const key = failurePairKey(failure.kind, failure.stage);
      row[key] = ((row[key] as number | undefined) ?? 0) + failure.count;
      totals.set(key, (totals.get(key) ?? 0) + failure.count);
    }
    return row;
  });
  const pairs: TFailurePair[] = [];
  for (const kind of FAILURE_KINDS) {
    for (const stage of STAGES) {
      const key = failurePairKey(kind, stage);
      const count = totals.get(key);
      if (count === undefined) continue;
      pairs.push({ key, label: `${kind} in ${stage.toUpperCase()}`, kind, stage, count });
    }
  }
  for (const row of rows) for (const pair of pairs) row[pair.key] ??= 0;
  return { rows, pairs, total: pairs.reduce((sum, pair) => sum + pair.count, 0) };
}

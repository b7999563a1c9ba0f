// Pure arithmetic of the chaos report: when throughput came back after a fault, and which fault's
// window a moment (a failure, a leaked sandbox, a crash) falls in.

export interface RecoveryOptions {
  /** The fault-free phase's completion rate, jobs per second. */
  baselinePerSec: number;
  /** Width of the window the rate is measured over, ms. */
  windowMs: number;
  /** Share of the baseline rate that counts as throughput back (0.5: half). */
  share: number;
  /** Scan step, ms. */
  stepMs: number;
}

export const DEFAULT_RECOVERY: RecoveryOptions = {
  baselinePerSec: Number.NaN,
  windowMs: 5_000,
  share: 0.5,
  stepMs: 250,
};

export interface Recovery {
  /** From the fault's end to throughput back, ms (the whole horizon when it never came back). */
  ms: number;
  recovered: boolean;
}

/**
 * The smallest delay d ≥ 0 after `endedAtMs` such that the completions in [end + d, end + d + W)
 * reach `share` of the baseline rate over W. A fault that never slowed the cluster recovers in 0.
 * When the workload runs out first (its last job final before a full window passes) the cluster
 * did recover: the first completion after the fault's end counts. Not recovered by `horizonMs`
 * (the next fault's start, or the phase's end): the whole span, flagged.
 */
export function recoveryAfter(
  endedAtMs: number,
  completionsMs: readonly number[],
  horizonMs: number,
  workloadEndMs: number,
  options: RecoveryOptions,
): Recovery {
  const sorted = [...completionsMs].sort((a, b) => a - b);
  const needed = Math.max(1, Math.ceil((options.share * options.baselinePerSec * options.windowMs) / 1_000));
  const countIn = (from: number, to: number) => lowerBound(sorted, to) - lowerBound(sorted, from);
  for (let d = 0; endedAtMs + d <= horizonMs; d += options.stepMs) {
    const from = endedAtMs + d;
    const to = from + options.windowMs;
    if (countIn(from, to) >= needed) return { ms: d, recovered: true };
    if (to > workloadEndMs && from <= workloadEndMs) {
      const first = sorted[lowerBound(sorted, endedAtMs)];
      return { ms: first === undefined ? 0 : Math.max(0, first - endedAtMs), recovered: true };
    }
  }
  return { ms: Math.max(0, horizonMs - endedAtMs), recovered: false };
}

/** Index of the first value ≥ `value` in an ascending array. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The index of the fault whose window holds `atMs`: the last fault begun at or before it (a fault's
 * window runs until the next one begins); -1 before the first.
 */
export function faultWindowOf(atMs: number, faultStartsMs: readonly number[]): number {
  let index = -1;
  faultStartsMs.forEach((start, i) => {
    if (start <= atMs) index = i;
  });
  return index;
}

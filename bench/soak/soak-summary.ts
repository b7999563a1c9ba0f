/** One sample of the soak, taken every `--sample-s` while the run goes, and once more when idle. */
export interface SoakSample {
  /** Seconds since the trainer started. */
  elapsedS: number;
  /** Jobs the server accepted so far (`stats.submitted`). */
  jobs: number;
  /** Of those: completed, failed (any kind) and cancelled (dynamic sampling's redundant jobs). */
  completed: number;
  failed: number;
  cancelled: number;
  /** Steps the trainer finished so far. */
  steps: number;
  /** Sandboxes the store counts as not closed (`/api/v1/sandboxes/summary` `live`). */
  liveSandboxes: number | null;
  /** bwrap processes below the server. */
  bwrapProcesses: number;
  /** Entries in the sandbox base directory (one per sandbox not yet removed). */
  sandboxDirs: number;
  /** Open file descriptors of the server process. */
  fds: number | null;
  rssBytes: number | null;
  /** Error/fatal log lines of the server so far. */
  errorLogLines: number;
  /** The embedded store's directory (PGlite), and its write-ahead log (`pg_wal`) alone. */
  storeBytes: number;
  walBytes: number;
  /** p99 of the /health probes since the previous sample, ms. */
  healthP99Ms: number | null;
}

/** What the soak's summary is computed from. */
export interface SoakOutcome {
  /** Sampled before the trainer started (server up, idle). */
  baseline: SoakSample;
  /** Sampled while the run went. */
  samples: readonly SoakSample[];
  /** Sampled after the trainer stopped and the server was left idle for a while. */
  idle: SoakSample;
  /** Wall time of each step, in order, ms. */
  stepMs: readonly number[];
  /** Every /health probe's latency, ms. */
  healthMs: readonly number[];
  /** /health probes that got no answer (refused, timed out). */
  healthFailures: number;
  /** /health answers other than 2xx. */
  healthNotOk: number;
}

/** The `p` quantile (0..1, nearest rank) of `values`; null when empty. */
export function quantile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] as number;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Mean of the last steps over the mean of the first (10 % of the steps each, at least 2): 1 when
 * nothing slows down. The first step (cold caches, first sandboxes) is left out when there are
 * enough steps for both windows without it. Null with fewer than 2 steps.
 */
export function stepTimeDrift(stepMs: readonly number[]): number | null {
  const steps = stepMs.length > 4 ? stepMs.slice(1) : stepMs;
  if (steps.length < 2) return null;
  const window = Math.max(
    1,
    Math.min(Math.floor(steps.length / 2), Math.max(2, Math.round(steps.length / 10))),
  );
  return round(mean(steps.slice(-window)) / mean(steps.slice(0, window)));
}

/** Per 1,000 jobs: growth from `before` to `after` (null when either is unknown or no job ran). */
function per1000Jobs(before: number | null, after: number | null, jobs: number): number | null {
  if (before === null || after === null || jobs === 0) return null;
  return round(((after - before) / jobs) * 1_000, 1);
}

/** The summary keys the issue names, plus the figures they are computed from. */
export function summarizeSoak(outcome: SoakOutcome): Record<string, number | null> {
  const { baseline, samples, idle, stepMs, healthMs } = outcome;
  const jobs = idle.jobs - baseline.jobs;
  const health = quantile(healthMs, 0.99);
  return {
    jobs,
    completedJobs: idle.completed - baseline.completed,
    failedJobs: idle.failed - baseline.failed,
    cancelledJobs: idle.cancelled - baseline.cancelled,
    steps: stepMs.length,
    leakedSandboxes: idle.liveSandboxes,
    bwrapProcessesIdle: idle.bwrapProcesses,
    // Directories shared by every sandbox (execute-only copies of the server and node-pty) are
    // there at baseline already: what is left beyond them belongs to sandboxes not removed.
    leakedSandboxDirs: idle.sandboxDirs - baseline.sandboxDirs,
    fdGrowthPer1000Jobs: per1000Jobs(baseline.fds, idle.fds, jobs),
    fdsBaseline: baseline.fds,
    fdsIdle: idle.fds,
    errorLogLines: idle.errorLogLines,
    storeBytesPer1000Jobs: per1000Jobs(baseline.storeBytes, idle.storeBytes, jobs),
    storeBytesIdle: idle.storeBytes,
    walBytesMax: Math.max(baseline.walBytes, idle.walBytes, ...samples.map((sample) => sample.walBytes)),
    stepTimeDrift: stepTimeDrift(stepMs),
    stepMsFirst: stepMs[0] ?? null,
    stepMsMedian: quantile(stepMs, 0.5),
    healthP99Ms: health === null ? null : round(health, 1),
    healthProbes: healthMs.length,
    healthFailures: outcome.healthFailures,
    healthNotOk: outcome.healthNotOk,
  };
}

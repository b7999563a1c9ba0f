// The stage-time profile of SWE-style rollouts and ProRL Agent's published scaling result.
//
// ProRL Agent (arXiv 2603.18815) publishes throughput, not per-stage durations: 0.35 instances/s
// on one node (Qwen3-4B) with 64 RUN workers, 1.65 on eight (0.25 → 1.26 for 14B), and 0.42 s per
// bash action. With RUN the bottleneck, Little's law gives a mean RUN time of 64 / 0.35 ≈ 183 s;
// the log-normal below (median 150 s, σ 0.6, mean ≈ 180 s) reproduces that one-node figure. INIT
// (container start, repository at its base commit) and EVAL (apply the patch, run the tests) are
// our estimates, shorter than RUN as in the paper's pipeline; turns arrive about every 4 s
// (model time plus a 0.42 s action), so a median rollout has ~37 turns, each a stored row.
import { logNormalMeanMs } from "./random";

interface TStageDistribution {
  /** Median duration in ms. */
  medianMs: number;
  /** σ of the log-normal (0: every job takes the median). */
  sigma: number;
}

export interface TStageProfile {
  init: TStageDistribution;
  run: TStageDistribution;
  eval: TStageDistribution;
  /** RUN time per agent turn in ms; each turn is one store write. */
  msPerTurn: number;
}

export const SWE_STAGE_PROFILE: TStageProfile = {
  init: { medianMs: 20_000, sigma: 0.5 },
  run: { medianMs: 150_000, sigma: 0.6 },
  eval: { medianMs: 30_000, sigma: 0.5 },
  msPerTurn: 4_000,
};

/** ProRL Agent's published 1 → 8 node throughput (instances/s) for two model sizes. */
export const PRORL_SCALING = {
  qwen3_4b: { oneNode: 0.35, eightNodes: 1.65 },
  qwen3_14b: { oneNode: 0.25, eightNodes: 1.26 },
} as const;

/** One node's throughput bound: the slowest stage's concurrency / mean duration, in jobs/s. */
export function stageBoundJobsPerSec(
  profile: TStageProfile,
  pools: { init: number; run: number; eval: number },
): number {
  const rate = (concurrency: number, stage: TStageDistribution) =>
    (concurrency * 1_000) / logNormalMeanMs(stage.medianMs, stage.sigma);
  return Math.min(
    rate(pools.init, profile.init),
    rate(pools.run, profile.run),
    rate(pools.eval, profile.eval),
  );
}

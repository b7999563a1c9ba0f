import type { TStepStats } from "@raas/shared";

const NO_WASTE = { jobs: 0, rolloutSeconds: 0, generatedTokens: 0 };

/** Step statistics with every counter 0 and no reward yet, changed by `overrides`. */
export function makeStats(overrides: Partial<TStepStats> = {}): TStepStats {
  return {
    groupsStarted: 0,
    groupsDecided: 0,
    informative: 0,
    uninformative: 0,
    failedGroups: 0,
    groupsDelivered: 0,
    jobsSubmitted: 0,
    jobsCancelled: 0,
    infraRetries: 0,
    trajectoriesCarriedIn: 0,
    trajectoriesCarriedOver: 0,
    staleWithheld: 0,
    staleRegenerated: 0,
    trajectories: 0,
    rewardMean: null,
    rewardStd: null,
    rewardMin: null,
    rewardMax: null,
    solvedFraction: null,
    meanTrajectoryTokens: null,
    waste: { cancelled: NO_WASTE, zeroVariance: NO_WASTE, stale: NO_WASTE, infraFailures: NO_WASTE },
    ...overrides,
  };
}

import type { TStepStats, TWasteEntry } from "@raas/shared";

import type { GroupRecord, RewardAggregate } from "../ports/batch-store.port";

export function emptyRewardAggregate(): RewardAggregate {
  return {
    count: 0,
    sum: 0,
    sumOfSquares: 0,
    min: null,
    max: null,
    finished: 0,
    solved: 0,
    deliveredTokens: 0,
  };
}

/**
 * A waste-ledger entry added after steps were stored (`uncertified`, `expiredLongShots`,
 * `tampered`): created empty on a step stored before it existed, so costs can be added to it.
 */
export function laterWasteEntry(
  stats: TStepStats,
  key: "uncertified" | "expiredLongShots" | "tampered",
): TWasteEntry {
  stats.waste[key] ??= { jobs: 0, rolloutSeconds: 0, generatedTokens: 0 };
  return stats.waste[key];
}

/** Adds one trajectory's cost to a waste entry (in place). */
export function addWaste(entry: TWasteEntry, cost: { rolloutMs: number; generatedTokens: number }): void {
  entry.jobs += 1;
  entry.rolloutSeconds = round3(entry.rolloutSeconds + cost.rolloutMs / 1000);
  entry.generatedTokens += cost.generatedTokens;
}

/** Adds handed-out rewards to the aggregate (in place). */
export function addDeliveredRewards(
  aggregate: RewardAggregate,
  rewards: readonly number[],
  tokens: number,
): void {
  for (const reward of rewards) {
    aggregate.count += 1;
    aggregate.sum += reward;
    aggregate.sumOfSquares += reward * reward;
    aggregate.min = aggregate.min === null ? reward : Math.min(aggregate.min, reward);
    aggregate.max = aggregate.max === null ? reward : Math.max(aggregate.max, reward);
  }
  aggregate.deliveredTokens += tokens;
}

/**
 * Recomputes the derived fields of a step's stats from its groups and reward aggregate (pure but
 * for writing into `stats`): decision counts, delivered counts and reward moments.
 */
export function refreshStepStats(
  stats: TStepStats,
  groups: readonly GroupRecord[],
  rewards: RewardAggregate,
): void {
  stats.groupsStarted = groups.length;
  stats.informative = groups.filter((g) => g.decision === "informative").length;
  stats.uninformative = groups.filter((g) => g.decision === "uninformative").length;
  stats.failedGroups = groups.filter((g) => g.decision === "failed").length;
  stats.groupsDecided = stats.informative + stats.uninformative + stats.failedGroups;
  stats.groupsDelivered = groups.filter((g) => g.state === "delivered").length;
  stats.trajectories = rewards.count;
  if (rewards.count > 0) {
    const mean = rewards.sum / rewards.count;
    stats.rewardMean = round3(mean);
    stats.rewardStd = round3(Math.sqrt(Math.max(0, rewards.sumOfSquares / rewards.count - mean * mean)));
    stats.rewardMin = rewards.min;
    stats.rewardMax = rewards.max;
    stats.meanTrajectoryTokens = round3(rewards.deliveredTokens / rewards.count);
  }
  stats.solvedFraction = rewards.finished > 0 ? round3(rewards.solved / rewards.finished) : null;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

import { CardGrid } from "@raas/ui/card-grid";
import { StatCard } from "@raas/ui/stat-card";
import { informativeFraction } from "../../lib/charts/run-curves";
import { formatNumber, formatPercent } from "../../lib/format";
import type { TStepView } from "./run-types";

/** A step's statistics as cards: groups, rewards, tokens, jobs and carry-over. */
export function StepStatCards({ stats }: { stats: TStepView["stats"] }) {
  return (
    <CardGrid>
      <StatCard label="Groups started" value={stats.groupsStarted} testId="stat-started" />
      <StatCard
        label="Decided"
        value={stats.groupsDecided}
        hint={`${stats.informative} informative · ${stats.uninformative} uninformative · ${stats.failedGroups} failed`}
        testId="stat-decided"
      />
      <StatCard label="Handed out" value={stats.groupsDelivered} testId="stat-delivered" />
      <StatCard
        label="Informative ÷ decided"
        value={formatPercent(informativeFraction(stats))}
        testId="stat-informative"
      />
      <StatCard
        label="Reward mean"
        value={formatNumber(stats.rewardMean, 3)}
        hint={
          stats.rewardMin === null
            ? "no trajectory handed out yet"
            : `std ${formatNumber(stats.rewardStd, 3)} · min ${formatNumber(stats.rewardMin, 3)} · max ${formatNumber(stats.rewardMax, 3)}`
        }
        testId="stat-reward"
      />
      <StatCard label="Solved" value={formatPercent(stats.solvedFraction)} testId="stat-solved" />
      <StatCard
        label="Mean trajectory tokens"
        value={formatNumber(stats.meanTrajectoryTokens, 1)}
        testId="stat-tokens"
      />
      <StatCard
        label="Jobs submitted"
        value={stats.jobsSubmitted}
        hint={`${stats.jobsCancelled} cancelled · ${stats.infraRetries} infra retries · ${stats.verifierCrashes} verifier crashes`}
        testId="stat-jobs"
      />
      <StatCard
        label="Carried in / over"
        value={`${stats.trajectoriesCarriedIn} / ${stats.trajectoriesCarriedOver}`}
        hint={`${stats.staleWithheld} stale withheld · ${stats.staleRegenerated} regenerated`}
      />
    </CardGrid>
  );
}

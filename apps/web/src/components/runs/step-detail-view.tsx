"use client";

import { CardGrid } from "@raas/ui/card-grid";
import { FactList } from "@raas/ui/fact-list";
import { Section } from "@raas/ui/section";
import { StatCard } from "@raas/ui/stat-card";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { informativeFraction } from "../../lib/charts/run-curves";
import { formatNumber, formatPercent, formatTimestamp } from "../../lib/format";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { GroupsTable } from "./groups-table";
import { RUNS_REFRESH_MS, runHref } from "./run-types";
import { StepStatusBadge } from "./step-status-badge";
import { WasteLedgerTable } from "./waste-ledger-table";

/** One step: its statistics, waste ledger and every group with its members' rewards. */
export function StepDetailView({ runId, stepId }: { runId: string; stepId: string }) {
  const trpc = useTRPC();
  const refetch = (status: string | undefined) =>
    status === "running" || status === undefined ? RUNS_REFRESH_MS : false;
  const step = useQuery(
    trpc.steps.get.queryOptions(
      { stepId },
      { refetchInterval: (query) => refetch(query.state.data?.status) },
    ),
  );
  const groups = useQuery(
    trpc.steps.groups.queryOptions({ stepId }, { refetchInterval: refetch(step.data?.status) }),
  );

  if (step.isPending) return <StateMessage kind="loading" title={`Loading step ${stepId}…`} />;
  if (!step.data) {
    return (
      <>
        <ErrorState what={`step ${stepId}`} error={step.error} />
        <p>
          <Link href={runHref(runId)}>← Back to the run</Link>
        </p>
      </>
    );
  }
  const data = step.data;
  const { stats } = data;

  return (
    <div data-testid="step-detail">
      <p>
        <Link href={runHref(data.runId)}>← The run</Link> ·{" "}
        <Link href={`/trajectories?stepId=${encodeURIComponent(data.id)}`}>Trajectories of this step</Link>
      </p>
      <h1>
        Step {data.index} <StepStatusBadge status={data.status} testId="step-status" />
      </h1>
      {data.failure ? (
        <p role="alert" data-testid="step-failure">
          {data.failure.message}
        </p>
      ) : null}
      <FactList
        facts={[
          { label: "Id", value: <span className="mono">{data.id}</span>, testId: "step-id" },
          { label: "Groups wanted × size", value: `${data.groups} × ${data.groupSize}` },
          { label: "Dynamic sampling", value: data.policy },
          { label: "Created", value: formatTimestamp(data.createdAtMs) },
          { label: "Closed", value: formatTimestamp(data.closedAtMs) },
        ]}
      />
      <Section id="stats" title="Statistics" description="Stored with the step as its groups were decided.">
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
            hint={`${stats.jobsCancelled} cancelled · ${stats.infraRetries} infra retries`}
            testId="stat-jobs"
          />
          <StatCard
            label="Carried in / over"
            value={`${stats.trajectoriesCarriedIn} / ${stats.trajectoriesCarriedOver}`}
            hint={`${stats.staleWithheld} stale withheld · ${stats.staleRegenerated} regenerated`}
          />
        </CardGrid>
      </Section>
      <Section id="waste" title="Waste ledger" description="Work that did not reach the trainer, by cause.">
        <WasteLedgerTable waste={stats.waste} />
      </Section>
      <Section
        id="groups"
        title="Groups"
        description="Every group started, whatever became of it; members link to their trajectories."
      >
        {groups.isPending ? <StateMessage kind="loading" title="Loading groups…" /> : null}
        {groups.error ? <ErrorState what="the step's groups" error={groups.error} /> : null}
        {groups.data && groups.data.items.length === 0 ? (
          <StateMessage kind="empty" title="No group started yet.">
            <p>
              Groups appear as soon as the batch system submits their members; check that workers are running.
            </p>
          </StateMessage>
        ) : null}
        {groups.data && groups.data.items.length > 0 ? <GroupsTable groups={groups.data.items} /> : null}
      </Section>
    </div>
  );
}

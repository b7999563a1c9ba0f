"use client";

import { FactList } from "@raas/ui/fact-list";
import { Section } from "@raas/ui/section";
import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatTimestamp } from "../../lib/format";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { RUNS_REFRESH_MS, runHref } from "./run-types";
import { StepGroups } from "./step-groups";
import { StepStatCards } from "./step-stat-cards";
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
        <StepStatCards stats={stats} />
      </Section>
      <Section id="waste" title="Waste ledger" description="Work that did not reach the trainer, by cause.">
        <WasteLedgerTable waste={stats.waste} />
      </Section>
      <Section
        id="groups"
        title="Groups"
        description="Every group started, whatever became of it; members link to their trajectories."
      >
        <StepGroups isPending={groups.isPending} error={groups.error} items={groups.data?.items} />
      </Section>
    </div>
  );
}

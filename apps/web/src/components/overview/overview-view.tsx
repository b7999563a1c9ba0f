"use client";

import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { FailedByKind } from "./failed-by-kind";
import { FailureBreakdown } from "./failure-breakdown";
import { StageCards } from "./stage-cards";
import { ThroughputChart } from "./throughput-chart";
import { TotalsRow } from "./totals-row";
import { WorkersSection } from "./workers-section";

/** How often the Overview asks for fresh counts, in ms. */
const STATS_REFRESH_MS = 1_000;
/** How often the Overview asks for the workers, in ms. */
const WORKERS_REFRESH_MS = 2_000;

/** Live stage queues, totals, failures by kind (and by stage over time), throughput and workers. */
export function OverviewView() {
  const trpc = useTRPC();
  const stats = useQuery(trpc.system.stats.queryOptions(undefined, { refetchInterval: STATS_REFRESH_MS }));
  const workers = useQuery(
    trpc.workers.list.queryOptions({ includeStopped: false }, { refetchInterval: WORKERS_REFRESH_MS }),
  );

  if (stats.isPending) return <StateMessage kind="loading" title="Loading live counts from the server…" />;
  if (stats.isError && !stats.data) return <ErrorState what="the live counts" error={stats.error} />;
  const data = stats.data;
  if (!data) return null;

  return (
    <div className="overview">
      {stats.isError ? <ErrorState what="fresh counts (showing the last ones)" error={stats.error} /> : null}
      {data.submitted === 0 ? (
        <StateMessage kind="empty" title="No jobs yet.">
          <p>
            Submit some with <code>npm run raas -- submit --demo 20</code> (diagnostic <code>sleep</code>{" "}
            jobs), or from a trainer with <code>jobs.submit</code>. The counts below update every second.
          </p>
        </StateMessage>
      ) : null}
      <StageCards stages={data.stages} />
      {workers.data ? (
        <WorkersSection workers={workers.data.workers} />
      ) : workers.isError ? (
        <ErrorState what="the workers" error={workers.error} />
      ) : null}
      <TotalsRow stats={data} />
      <FailedByKind failedByKind={data.failedByKind} failedByLabel={data.failedByLabel} />
      <FailureBreakdown series={data.throughputSeries} />
      <ThroughputChart series={data.throughputSeries} windowMs={data.throughputWindowMs} />
    </div>
  );
}

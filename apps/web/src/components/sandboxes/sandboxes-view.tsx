"use client";

import { EmptyState } from "@raas/ui/empty-state";
import { LoadingState } from "@raas/ui/loading-state";
import { useNow } from "../../lib/use-now";
import { ErrorState } from "../error-state";
import { LimitHitsTable } from "./limit-hits-table";
import { LimitsInForce } from "./limits-in-force";
import { ReadyLatency, readyMsOf } from "./ready-latency";
import { RecentFailures } from "./recent-failures";
import { SandboxFilterBar } from "./sandbox-filter-bar";
import { sandboxQueryInput } from "./sandbox-filters.types";
import { StateCounts } from "./state-counts";
import { useSandboxFilters } from "./use-sandbox-filters";
import { useSandboxQueries } from "./use-sandbox-queries";
import { WorkerImages } from "./worker-images";
import { WorkerLoad } from "./worker-load";

/** A time window's start moves in steps this long, so the queries' keys stay put in between. */
const WINDOW_STEP_MS = 10_000;

/** Sandbox health: states, create → ready latency, limit hits, failures, load and images per worker, limits. */
export function SandboxesView() {
  const { filters, setFilters } = useSandboxFilters();
  const nowMs = useNow(WINDOW_STEP_MS, filters.since !== undefined);
  const input = sandboxQueryInput(filters, Math.floor(nowMs / WINDOW_STEP_MS) * WINDOW_STEP_MS);

  const { summary, ready, crashed, health, workers, workerList, failures, seenByWorker } =
    useSandboxQueries(input);

  const filterBar = (
    <SandboxFilterBar
      filters={filters}
      workerIds={workerList.map((worker) => worker.id)}
      onChange={setFilters}
    />
  );
  if (summary.isPending) return <LoadingState title="Loading sandbox health from the server…" />;
  if (!summary.data) return <ErrorState what="sandbox health" error={summary.error} />;
  const data = summary.data;
  const hasFilters = filters.host !== undefined || filters.since !== undefined;

  return (
    <div data-testid="sandboxes-view">
      {filterBar}
      {summary.isError ? (
        <ErrorState what="fresh counts (showing the last ones)" error={summary.error} />
      ) : null}
      {data.sandboxes === 0 ? <NoSandboxes hasFilters={hasFilters} /> : null}
      <StateCounts summary={data} />
      <ReadyLatency
        meanReadyMs={data.meanReadyMs}
        readyMs={ready.data ? readyMsOf(ready.data.events) : undefined}
      />
      <LimitHitsTable limitHits={data.limitHits} />
      {crashed.isError ? <ErrorState what="sandbox failures" error={crashed.error} /> : null}
      <RecentFailures failures={failures} />
      {workers.isError && !workers.data ? (
        <ErrorState what="the workers" error={workers.error} />
      ) : (
        <WorkerLoad
          workers={workerList}
          seenByWorker={seenByWorker}
          onPickWorker={(host) => setFilters({ host })}
        />
      )}
      {workers.isError && !workers.data ? null : <WorkerImages workers={workerList} />}
      {health.isError ? (
        <ErrorState what="the limits in force" error={health.error} />
      ) : (
        <LimitsInForce limits={health.data?.sandboxLimits} />
      )}
    </div>
  );
}

/** Why the page is empty: the filters, or no agent job ran yet. */
function NoSandboxes({ hasFilters }: { hasFilters: boolean }) {
  return hasFilters ? (
    <EmptyState title="No sandboxes match these filters.">
      <p>Pick “all workers” or “all time” to see more.</p>
    </EmptyState>
  ) : (
    <EmptyState title="No sandboxes yet.">
      <p>
        Agent jobs (math, code, stem, swe) each run in a sandbox. Submit some, e.g. the shipped examples{" "}
        <code>npm start</code> writes: <code>npm run raas -- submit .raas/example-rollouts.jsonl</code>. This
        page refreshes every 2 s.
      </p>
    </EmptyState>
  );
}

"use client";

import { EmptyState } from "@raas/ui/empty-state";
import { LoadingState } from "@raas/ui/loading-state";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { recentSandboxFailures } from "../../lib/charts/sandbox-failures";
import { useNow } from "../../lib/use-now";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { LimitHitsTable } from "./limit-hits-table";
import { LimitsInForce } from "./limits-in-force";
import { READY_EVENTS_LIMIT, ReadyLatency, readyMsOf } from "./ready-latency";
import { RecentFailures } from "./recent-failures";
import { SandboxFilterBar } from "./sandbox-filter-bar";
import { sandboxQueryInput } from "./sandbox-filters.types";
import { StateCounts } from "./state-counts";
import { useSandboxFilters } from "./use-sandbox-filters";
import { WorkerLoad } from "./worker-load";

/** How often the page asks for fresh counts, in ms. */
export const SANDBOXES_REFRESH_MS = 2_000;
/** Per-worker counts are one query per worker: asked less often, so a large fleet stays cheap. */
const PER_WORKER_REFRESH_MS = 10_000;
/** A time window's start moves in steps this long, so the queries' keys stay put in between. */
const WINDOW_STEP_MS = 10_000;

/** Sandbox health: states, create → ready latency, limit hits, failures, load per worker, limits. */
export function SandboxesView() {
  const trpc = useTRPC();
  const { filters, setFilters } = useSandboxFilters();
  const nowMs = useNow(WINDOW_STEP_MS, filters.since !== undefined);
  const input = sandboxQueryInput(filters, Math.floor(nowMs / WINDOW_STEP_MS) * WINDOW_STEP_MS);
  const live = { refetchInterval: SANDBOXES_REFRESH_MS, placeholderData: keepPreviousData };

  const summary = useQuery(trpc.sandboxes.summary.queryOptions(input, live));
  const ready = useQuery(
    trpc.sandboxes.events.queryOptions({ ...input, type: "ready", limit: READY_EVENTS_LIMIT }, live),
  );
  const crashed = useQuery(
    trpc.sandboxes.events.queryOptions({ ...input, type: "crashed", limit: 50 }, live),
  );
  const startFailed = useQuery(
    trpc.sandboxes.events.queryOptions({ ...input, type: "start_failed", limit: 50 }, live),
  );
  const closed = useQuery(trpc.sandboxes.events.queryOptions({ ...input, type: "closed", limit: 500 }, live));
  const health = useQuery(trpc.system.health.queryOptions(undefined, { staleTime: 60_000 }));
  const workers = useQuery(trpc.workers.list.queryOptions({ includeStopped: false }, live));
  const workerList = workers.data?.workers ?? [];
  const perWorker = useQueries({
    queries: workerList.map((worker) =>
      trpc.sandboxes.summary.queryOptions(
        { ...input, hostId: worker.id },
        { refetchInterval: PER_WORKER_REFRESH_MS, placeholderData: keepPreviousData },
      ),
    ),
  });

  const failures = useMemo(
    () =>
      recentSandboxFailures([
        ...(crashed.data?.events ?? []),
        ...(startFailed.data?.events ?? []),
        ...(closed.data?.events ?? []),
      ]),
    [crashed.data, startFailed.data, closed.data],
  );
  const seenByWorker = new Map(
    workerList.map((worker, index) => [worker.id, perWorker[index]?.data?.sandboxes]),
  );

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
      {data.sandboxes === 0 ? (
        hasFilters ? (
          <EmptyState title="No sandboxes match these filters.">
            <p>Pick “all workers” or “all time” to see more.</p>
          </EmptyState>
        ) : (
          <EmptyState title="No sandboxes yet.">
            <p>
              Agent jobs (math, code, stem, swe) each run in a sandbox. Submit some, e.g. the shipped examples{" "}
              <code>npm start</code> writes: <code>npm run raas -- submit .raas/example-rollouts.jsonl</code>.
              This page refreshes every 2 s.
            </p>
          </EmptyState>
        )
      ) : null}
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
      {health.isError ? (
        <ErrorState what="the limits in force" error={health.error} />
      ) : (
        <LimitsInForce limits={health.data?.sandboxLimits} />
      )}
    </div>
  );
}

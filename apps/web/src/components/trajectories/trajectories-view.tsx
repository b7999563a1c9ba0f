"use client";

import { StateMessage } from "@raas/ui/state-message";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import styles from "./trajectories.module.css";
import { TrajectoriesTable } from "./trajectories-table";
import { TrajectoryFilterForm } from "./trajectory-filter-form";
import { toTrajectoryListRequest, toTrajectoryQuery } from "./trajectory-filters.types";
import { useTrajectoryFilters } from "./use-trajectory-filters";

/** How often the visible page is refreshed, in ms. */
const TRAJECTORIES_REFRESH_MS = 3_000;

/** Searchable, filterable trajectories with cursor pages; filters and page live in the URL. */
export function TrajectoriesView() {
  const trpc = useTRPC();
  const { filters, setFilters } = useTrajectoryFilters();
  // Runs only name the run filter's options; the browser works without a batch system too.
  const runs = useQuery(trpc.runs.list.queryOptions({ limit: 200 }, { retry: false }));
  const jobs = useQuery(
    trpc.jobs.list.queryOptions(toTrajectoryListRequest(filters), {
      refetchInterval: TRAJECTORIES_REFRESH_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const runNames = new Map((runs.data?.items ?? []).map((run) => [run.id, run.name] as const));
  const { cursor, ...withoutCursor } = filters;
  const hasFilters = Object.keys(withoutCursor).length > 0;
  const nextCursor = jobs.data?.nextCursor ?? null;

  return (
    <div data-testid="trajectories-view">
      <TrajectoryFilterForm
        key={toTrajectoryQuery(withoutCursor)}
        filters={filters}
        runs={runs.data?.items ?? []}
        onApply={setFilters}
      />
      {jobs.isPending ? <StateMessage kind="loading" title="Loading trajectories…" /> : null}
      {jobs.error ? <ErrorState what="trajectories" error={jobs.error} /> : null}
      {jobs.data && jobs.data.items.length === 0 ? (
        <StateMessage
          kind="empty"
          title={hasFilters ? "No trajectory matches these filters." : "No trajectories yet."}
        >
          <p>
            {hasFilters
              ? "Clear a filter or widen the reward range; run, task and reward filters only match jobs a training step submitted."
              : "Every rollout job is a trajectory: submit jobs (POST /api/v1/jobs) or create a training step, and they appear here."}
          </p>
        </StateMessage>
      ) : null}
      {jobs.data && jobs.data.items.length > 0 ? (
        <TrajectoriesTable jobs={jobs.data.items} runNames={runNames} />
      ) : null}
      {cursor !== undefined || nextCursor !== null ? (
        <nav className={styles.pagination} aria-label="Pages">
          <button type="button" disabled={cursor === undefined} onClick={() => setFilters(withoutCursor)}>
            ← Newest
          </button>
          <button
            type="button"
            disabled={nextCursor === null}
            onClick={() => setFilters({ ...withoutCursor, ...(nextCursor ? { cursor: nextCursor } : {}) })}
          >
            Older →
          </button>
        </nav>
      ) : null}
    </div>
  );
}

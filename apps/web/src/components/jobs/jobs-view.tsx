"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/trpc-context";
import { JobFilters } from "./job-filters";
import { toListRequest } from "./job-filters.types";
import { JobsBody } from "./jobs-body";
import { useJobFilters } from "./use-job-filters";

/** How often the visible page of jobs is refreshed, in ms. */
const JOBS_REFRESH_MS = 2_000;

/** The filterable, paginated job list; filters and page live in the URL. */
export function JobsView() {
  const trpc = useTRPC();
  const { filters, setFilters } = useJobFilters();
  const jobs = useQuery(
    trpc.jobs.list.queryOptions(toListRequest(filters), {
      refetchInterval: JOBS_REFRESH_MS,
      placeholderData: keepPreviousData,
    }),
  );
  const hasFilters = Object.keys(filters).some((key) => key !== "cursor");

  return (
    <div className="jobs">
      <JobFilters filters={filters} onChange={setFilters} />
      <JobsBody
        data={jobs.data}
        error={jobs.error}
        isPending={jobs.isPending}
        hasFilters={hasFilters}
        isFirstPage={filters.cursor === undefined}
        onPage={(cursor) => setFilters({ cursor })}
      />
    </div>
  );
}

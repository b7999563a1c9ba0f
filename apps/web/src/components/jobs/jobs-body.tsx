import { StateMessage } from "@raas/ui/state-message";
import type { TJobListView } from "../../trpc/router-types";
import { ErrorState } from "../error-state";
import { JobsTable } from "./jobs-table";
import { Pagination } from "./pagination";

/** The list under the filters: loading, error, empty (with what to do) or the table. */
export function JobsBody({
  data,
  error,
  isPending,
  hasFilters,
  isFirstPage,
  onPage,
}: {
  data: TJobListView | undefined;
  error: unknown;
  isPending: boolean;
  hasFilters: boolean;
  isFirstPage: boolean;
  onPage: (cursor: string | undefined) => void;
}) {
  if (isPending) return <StateMessage kind="loading" title="Loading jobs…" />;
  if (!data) return <ErrorState what="jobs" error={error} />;
  if (data.items.length === 0) {
    return hasFilters || !isFirstPage ? (
      <StateMessage kind="empty" title="No jobs match these filters.">
        <p>Loosen a filter or use “Clear filters”.</p>
      </StateMessage>
    ) : (
      <StateMessage kind="empty" title="No jobs yet.">
        <p>
          Submit one with <code>npm run raas -- submit --demo 20</code>, or from a trainer with{" "}
          <code>jobs.submit</code>.
        </p>
      </StateMessage>
    );
  }
  return (
    <>
      {error ? <ErrorState what="fresh jobs (showing the last ones)" error={error} /> : null}
      <JobsTable jobs={data.items} />
      <Pagination isFirstPage={isFirstPage} nextCursor={data.nextCursor} onPage={onPage} />
    </>
  );
}

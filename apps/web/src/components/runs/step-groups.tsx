import { StateMessage } from "@raas/ui/state-message";
import { ErrorState } from "../error-state";
import { GroupsTable } from "./groups-table";
import type { TGroupView } from "./run-types";

/** The step's groups, or why there are none to show (loading, failed, none started yet). */
export function StepGroups({
  isPending,
  error,
  items,
}: {
  isPending: boolean;
  error: unknown;
  /** Undefined until the groups are loaded. */
  items: readonly TGroupView[] | undefined;
}) {
  return (
    <>
      {isPending ? <StateMessage kind="loading" title="Loading groups…" /> : null}
      {error ? <ErrorState what="the step's groups" error={error} /> : null}
      {items && items.length === 0 ? (
        <StateMessage kind="empty" title="No group started yet.">
          <p>
            Groups appear as soon as the batch system submits their members; check that workers are running.
          </p>
        </StateMessage>
      ) : null}
      {items && items.length > 0 ? <GroupsTable groups={items} /> : null}
    </>
  );
}

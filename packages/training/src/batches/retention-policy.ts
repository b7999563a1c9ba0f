import type { TRunRetention } from "@raas/shared";
import type { GroupRecord, StepRecord } from "../ports/batch-store.port";

type StepFacts = Pick<StepRecord, "id" | "index" | "status" | "closedAtMs">;

/**
 * The finished steps of one run whose trajectories `retention` says to archive at `nowMs`: closed,
 * with at least `archiveAfterSteps` newer steps in the run and closed at least `archiveAfterMs`
 * ago (each condition only when given). `steps` are all of the run's steps.
 */
export function stepsDueForArchive(
  retention: TRunRetention,
  steps: readonly StepFacts[],
  nowMs: number,
): string[] {
  const indexes = steps.map((step) => step.index);
  return steps
    .filter((step) => {
      if (step.status === "running" || step.closedAtMs === null) return false;
      if (retention.archiveAfterSteps !== undefined) {
        const newer = indexes.filter((index) => index > step.index).length;
        if (newer < retention.archiveAfterSteps) return false;
      }
      if (retention.archiveAfterMs !== undefined && nowMs - step.closedAtMs < retention.archiveAfterMs)
        return false;
      return true;
    })
    .map((step) => step.id);
}

/** Job ids a set of groups names (slots not yet submitted have none). */
export function memberJobIds(groups: readonly Pick<GroupRecord, "members">[]): string[] {
  const ids = new Set<string>();
  for (const group of groups)
    for (const member of group.members) if (member.jobId !== "") ids.add(member.jobId);
  return [...ids];
}

/**
 * Groups whose samples are still in use: every group of a step not due for archiving (running, or
 * kept by the policy), and carried groups no later step took or let go yet (their finished samples
 * wait for the next step).
 */
export function isGroupInUse(
  group: Pick<GroupRecord, "stepId" | "state" | "carriedIntoGroupId" | "expiredInStepId">,
  dueStepIds: ReadonlySet<string>,
): boolean {
  if (!dueStepIds.has(group.stepId)) return true;
  return group.state === "carried" && group.carriedIntoGroupId === null && group.expiredInStepId === null;
}

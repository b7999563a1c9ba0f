import type { TGroupMember } from "@raas/shared";
import type { GroupRecord } from "../ports/batch-store.port";
import { membersToDispatch, pilotSize } from "./pilot-dispatch";
import { type BatchAction, newGroup, type ProgressContext, type StepState } from "./step-progress";

/**
 * Starts the run's carried groups in a new step: each becomes a group of this step with its
 * finished samples and still-running jobs in the first slots (at most `groupSize`) and the
 * remaining slots submitted fresh (with a pilot, a long shot's slots wait: `membersToDispatch`).
 * The old groups are marked as taken; a running job's end is forwarded to its new group. Returns
 * the submits.
 */
export function carryIn(
  state: StepState,
  carried: readonly GroupRecord[],
  ctx: ProgressContext,
): BatchAction[] {
  const actions: BatchAction[] = [];
  const pilot = pilotSize(state.step.request);
  let longShots = 0;
  for (const old of carried) {
    // Finished samples, and the running jobs of a group carried whole (informative at close).
    const kept = old.members
      .filter((m) => m.status === "finished" || (m.status === "running" && m.jobId !== ""))
      .slice(0, state.step.groupSize);
    const finished = kept.filter((m) => m.status === "finished");
    if (kept.length === 0) continue;
    if (isCarriedLongShot(kept, pilot, state.step.groupSize)) {
      // Long shots wait for spare work: a step takes at most `groups` of them, the rest stay
      // carried (kept) for a later step, so the backlog is not copied into every step.
      if (longShots >= state.step.groups) continue;
      longShots += 1;
    }
    const group = newGroup(state, old.task, ctx);
    kept.forEach((sample, slot) => {
      group.members[slot] = {
        ...structuredClone(sample),
        slot,
        carriedFromStepId: sample.carriedFromStepId ?? old.stepId,
      };
    });
    old.carriedIntoGroupId = group.id;
    state.groups.push(group);
    state.step.stats.trajectoriesCarriedIn += finished.length;
    state.step.rewards.finished += finished.length;
    state.step.rewards.solved += finished.filter((m) => (m.reward ?? 0) > 0).length;
    for (const member of membersToDispatch(group.members, pilot, false))
      actions.push({ type: "submit", group, member });
  }
  return actions;
}

/** Kept samples of a carried group whose pilot agreed: all finished, one reward, fewer than n. */
function isCarriedLongShot(kept: readonly TGroupMember[], pilot: number | null, groupSize: number): boolean {
  if (pilot === null || kept.length < pilot || kept.length >= groupSize) return false;
  const first = kept[0]?.reward;
  return kept.every((m) => m.status === "finished" && m.reward === first);
}

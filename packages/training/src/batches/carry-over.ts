import type { TGroupMember } from "@raas/shared";
import type { GroupRecord } from "../ports/batch-store.port";
import { membersToDispatch, pilotSize } from "./pilot-dispatch";
import { type BatchAction, newGroup, type ProgressContext, type StepState } from "./step-progress";
import { addWaste, laterWasteEntry } from "./step-stats";

/**
 * Starts the run's carried groups in a new step: each becomes a group of this step with its
 * finished samples and still-running jobs in the first slots (at most `groupSize`) and the
 * remaining slots submitted fresh (with a pilot, a long shot's slots wait: `membersToDispatch`).
 * The old groups are marked as taken; a running job's end is forwarded to its new group.
 *
 * A step takes at most `groups` long shots (oldest first) and leaves as many again waiting for
 * the next step; older ones beyond that are let go (`expiredInStepId`, their samples in the
 * step's `expiredLongShots` waste), so a run whose pilots keep agreeing does not pile up a
 * backlog that every later step reads and no step ever takes. Returns the submits.
 */
export function carryIn(
  state: StepState,
  carried: readonly GroupRecord[],
  ctx: ProgressContext,
): BatchAction[] {
  const actions: BatchAction[] = [];
  const pilot = pilotSize(state.step.request);
  let longShots = 0;
  const waiting: Array<{ old: GroupRecord; kept: TGroupMember[] }> = [];
  for (const old of carried) {
    // Finished samples, and the running jobs of a group carried whole (informative at close).
    const kept = old.members
      .filter((m) => m.status === "finished" || (m.status === "running" && m.jobId !== ""))
      .slice(0, state.step.groupSize);
    const finished = kept.filter((m) => m.status === "finished");
    if (kept.length === 0) continue;
    if (isCarriedLongShot(kept, pilot, state.step.groupSize)) {
      if (longShots >= state.step.groups) {
        waiting.push({ old, kept });
        continue;
      }
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
  // The newest `groups` stay carried for the next step; the older rest are let go.
  for (const { old, kept } of waiting.slice(0, Math.max(0, waiting.length - state.step.groups))) {
    old.expiredInStepId = state.step.id;
    for (const sample of kept) addWaste(laterWasteEntry(state.step.stats, "expiredLongShots"), sample);
  }
  return actions;
}

/** Kept samples of a carried group whose pilot agreed: all finished, one reward, fewer than n. */
function isCarriedLongShot(kept: readonly TGroupMember[], pilot: number | null, groupSize: number): boolean {
  if (pilot === null || kept.length < pilot || kept.length >= groupSize) return false;
  const first = kept[0]?.reward;
  return kept.every((m) => m.status === "finished" && m.reward === first);
}

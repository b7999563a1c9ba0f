import type { TStage } from "@raas/shared";

/** A job running a stage, as the preemption decision sees it. */
export interface RunningUnit {
  jobId: string;
  priority: number;
  stage: TStage;
  startedAtMs: number;
}

/** A job waiting for a slot of `stage` (held for INIT or queued), eligible to run (not capped). */
export interface WaitingUnit {
  priority: number;
  stage: TStage;
  sinceMs: number;
}

export interface PreemptionInput {
  running: readonly RunningUnit[];
  waiting: readonly WaitingUnit[];
  /** Jobs asked to give their slot up whose stage has not ended yet (they free slots soon). */
  pendingPreemptions: ReadonlyMap<TStage, number>;
  nowMs: number;
  /** A unit must have waited this long before lower-priority work is preempted for it. */
  preemptAfterMs: number;
}

/** Only INIT and RUN give their slot up: a job in EVAL holds a finished trajectory. */
const PREEMPTIBLE_STAGES: readonly TStage[] = ["init", "run"];

/**
 * Which running jobs to preempt: for each unit that has waited `preemptAfterMs` for a slot of a
 * preemptible stage (highest priority first, minus the slots already being freed), one running job
 * of that stage with a strictly lower priority — the lowest priority first, and of those the one
 * started last, which loses the least work. Each job is chosen once.
 */
export function choosePreemptions(input: PreemptionInput): string[] {
  const chosen: string[] = [];
  for (const stage of PREEMPTIBLE_STAGES) {
    const starving = input.waiting
      .filter((unit) => unit.stage === stage && input.nowMs - unit.sinceMs >= input.preemptAfterMs)
      .sort((a, b) => b.priority - a.priority || a.sinceMs - b.sinceMs)
      .slice(input.pendingPreemptions.get(stage) ?? 0);
    const victims = input.running
      .filter((unit) => unit.stage === stage)
      .sort((a, b) => a.priority - b.priority || b.startedAtMs - a.startedAtMs);
    let next = 0;
    for (const unit of starving) {
      const victim = victims[next];
      if (!victim || victim.priority >= unit.priority) break;
      chosen.push(victim.jobId);
      next += 1;
    }
  }
  return chosen;
}

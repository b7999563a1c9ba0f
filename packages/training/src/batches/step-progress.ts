import type { TFailureKind, TFailureLabel, TGroupMember, TStage, TStepTask } from "@raas/shared";
import type { GroupRecord, RunRecord, StepRecord } from "../ports/batch-store.port";
import { countJobFailure, isOverFailureBudget, jobFailureCause } from "./failure-budget";
import { decideGroup, groupsToKeepInFlight, isGroupComplete } from "./group-decision";
import { isLongShot, membersToDispatch, pilotSize } from "./pilot-dispatch";
import { addDeliveredRewards, addWaste, laterWasteEntry, refreshStepStats } from "./step-stats";
import { isExcludedAsUncertified } from "./trace-certification";

/** One step with its groups, as the batch system holds it while it runs. */
export interface StepState {
  run: RunRecord;
  step: StepRecord;
  groups: GroupRecord[];
}

/** A member's job reached a terminal status. */
export interface JobEnd {
  jobId: string;
  status: "completed" | "failed" | "cancelled";
  reward: number | null;
  trainable: boolean | null;
  failureKind: TFailureKind | null;
  /**
   * The job's `failure.label` (`tampered`: its grade was voided; `misconfigured`: its own
   * configuration failed, so it is not re-run); absent means none.
   */
  failureLabel?: TFailureLabel | null;
  /** The job's `failure.stage` and `failure.message`; absent means none. */
  failureStage?: TStage | null;
  failureMessage?: string | null;
  rolloutMs: number;
  generatedTokens: number;
  /** The job's result reports a verifier that gave no score (`result.verifier.crashed`); absent means false. */
  verifierCrashed?: boolean;
  /**
   * Whether the job's gateway traces are token-exact; null when it has no certificate (no gateway
   * call). Read only for steps with `requireCertifiedTraces`; absent means null.
   */
  tracesCertified?: boolean | null;
}

/** What the batch system must do after a state change. */
export type BatchAction =
  | { type: "submit"; group: GroupRecord; member: TGroupMember }
  | { type: "cancel"; jobIds: string[] };

export interface ProgressContext {
  nowMs: number;
  /** The current policy weight version (null: none set). */
  weightVersion: number | null;
  newGroupId: () => string;
  /** The next task of the step's source, or null when it has no more. */
  drawTask: () => TStepTask | null;
}

/** A fresh member for `slot`, to be submitted (its `jobId` is filled in after the submit). */
export function pendingMember(slot: number, weightVersion: number | null): TGroupMember {
  return {
    slot,
    jobId: "",
    status: "running",
    reward: null,
    failureKind: null,
    attempts: 1,
    dispatchVersion: weightVersion,
    isStale: false,
    carriedFromStepId: null,
    rolloutMs: 0,
    generatedTokens: 0,
    pastJobIds: [],
  };
}

function redispatch(member: TGroupMember, weightVersion: number | null, countsAsAttempt: boolean): void {
  member.pastJobIds.push(member.jobId);
  member.jobId = "";
  member.status = "running";
  member.reward = null;
  member.failureKind = null;
  member.isStale = false;
  member.carriedFromStepId = null;
  member.dispatchVersion = weightVersion;
  if (countsAsAttempt) member.attempts += 1;
}

/**
 * Records a member's job end: a finished sample (completed, or the policy's own failure), an
 * infrastructure failure (re-run while retries last, else the group fails), a failure of the job's
 * own configuration (`misconfigured`: never re-run, the group fails), or a cancel. Every failure
 * counts against the step's budget. Jobs the group no longer waits for (cancelled as redundant,
 * superseded) only add to the waste ledger.
 */
export function applyJobEnd(state: StepState, end: JobEnd, ctx: ProgressContext): BatchAction[] {
  const { step } = state;
  const group = state.groups.find((g) => g.members.some((m) => m.jobId === end.jobId));
  const member = group?.members.find((m) => m.jobId === end.jobId);
  if (!group || !member) return [];
  // Every attempt counts, whatever became of it: a verifier the policy learns to crash must show.
  if (end.verifierCrashed) step.stats.verifierCrashes = (step.stats.verifierCrashes ?? 0) + 1;
  const cost = { rolloutMs: end.rolloutMs, generatedTokens: end.generatedTokens };
  const isSample = end.status === "completed" || (end.status === "failed" && end.trainable === true);
  const isUncertified =
    isSample &&
    isExcludedAsUncertified(step.request.requireCertifiedTraces ?? false, end.tracesCertified ?? null);
  if (member.status !== "running") {
    if (member.status !== "cancelled") return [];
    if (isUncertified) {
      // Finished after the close's cancel, but not token-exact: not carried, never handed out.
      addWaste(laterWasteEntry(step.stats, "uncertified"), cost);
      return [];
    }
    if (
      isSample &&
      group.carriedIntoGroupId === null &&
      (group.state === "carried" || group.state === "cancelled")
    ) {
      // It finished before the close's cancel reached it: a sample like any other, kept for the next step.
      Object.assign(member, { status: "finished", reward: end.reward ?? 0, failureKind: end.failureKind });
      countTampered(state, end, cost);
      member.rolloutMs += end.rolloutMs;
      member.generatedTokens += end.generatedTokens;
      step.stats.jobsCancelled = Math.max(0, step.stats.jobsCancelled - 1);
      step.rewards.finished += 1;
      if ((member.reward ?? 0) > 0) step.rewards.solved += 1;
      const isFlat = decideGroup(group.members) === "uninformative";
      if (isFlat && step.request.dynamicSampling.policy === "zero-variance") {
        // Now complete with equal rewards: decided, not worth carrying.
        group.decision = "uninformative";
        if (group.state === "carried") step.stats.trajectoriesCarriedOver -= group.members.length - 1;
        group.state = "dropped";
        for (const sample of group.members) addWaste(step.stats.waste.zeroVariance, sample);
      } else {
        group.state = "carried";
        step.stats.trajectoriesCarriedOver += 1;
        const rewards = new Set(group.members.filter((m) => m.status === "finished").map((m) => m.reward));
        if (rewards.size > 1) group.decision = "informative";
      }
      // The step is closed (advance no longer runs): its counters must still see this decision.
      refreshStepStats(step.stats, state.groups, step.rewards);
    } else addWaste(step.stats.waste.cancelled, cost);
    return [];
  }
  member.rolloutMs += end.rolloutMs;
  member.generatedTokens += end.generatedTokens;
  member.failureKind = end.failureKind;
  const actions: BatchAction[] = [];
  if (isUncertified) {
    member.status = "finished";
    member.reward = end.reward ?? 0;
    actions.push(...dropUncertifiedGroup(state, group, ctx));
  } else if (isSample) {
    member.status = "finished";
    member.reward = end.reward ?? 0;
    countTampered(state, end, cost);
    step.rewards.finished += 1;
    if (member.reward > 0) step.rewards.solved += 1;
  } else if (end.status === "failed") {
    addWaste(step.stats.waste.infraFailures, cost);
    const cause = jobFailureCause(end.failureKind, end.failureStage, end.failureLabel);
    countJobFailure(step.stats, cause, end.failureMessage ?? "no message");
    // The job's own configuration failed: another sandbox would fail the same way.
    const isRerunnable = end.failureLabel !== "misconfigured";
    const mayRetry = isRerunnable && step.status === "running" && !isOverFailureBudget(step);
    if (member.attempts <= step.request.maxInfraRetries && mayRetry) {
      redispatch(member, ctx.weightVersion, true);
      step.stats.infraRetries += 1;
      actions.push({ type: "submit", group, member });
    } else member.status = "failed";
  } else member.status = "cancelled";
  return [...actions, ...advance(state, ctx)];
}

/**
 * A sample whose grade was voided (its canaries lied) is still a sample — reward 0, trainable,
 * handed out with its group — but its rollout work bought no real grade: the `tampered` ledger
 * entry shows how much of a step the policy spent forging.
 */
function countTampered(
  state: StepState,
  end: JobEnd,
  cost: { rolloutMs: number; generatedTokens: number },
): void {
  if (end.failureLabel === "tampered") addWaste(laterWasteEntry(state.step.stats, "tampered"), cost);
}

/**
 * Moves the step on: decides groups, hands out complete ones (or withholds / regenerates stale
 * samples), closes the step once it has its groups (cancelling what became redundant and carrying
 * finished samples of the rest over), and starts new groups to keep enough in flight. A step
 * whose infrastructure failures passed its budget ends `failed` instead of drawing more.
 */
export function advance(state: StepState, ctx: ProgressContext): BatchAction[] {
  const { step } = state;
  if (step.status !== "running") return [];
  const actions: BatchAction[] = [];
  const pilot = pilotSize(step.request);
  for (const group of state.groups) {
    if (group.state !== "running") continue;
    const decision = decideGroup(group.members);
    if (decision !== group.decision) {
      group.decision = decision;
      group.decidedAtMs ??= ctx.nowMs;
    }
    actions.push(...dispatch(group, pilot, false));
    actions.push(...settleGroup(state, group, ctx));
  }
  const wanted = step.groups - step.deliveredSeq;
  if (wanted <= 0) return [...actions, ...closeStep(state, "completed", ctx)];
  if (isOverFailureBudget(step)) {
    // Nothing more is submitted: the close cancels every member still waiting for a job.
    const cancels = actions.filter((a) => a.type === "cancel");
    return [...cancels, ...closeStep(state, "failed", ctx)];
  }
  const fresh = refill(state, wanted, ctx);
  actions.push(...fresh.actions);
  if (fresh.isShort) {
    // Nothing fresh left to run: long shots run on (they may still turn out informative).
    for (const group of state.groups)
      if (group.state === "running" && isLongShot(group.members, pilot))
        actions.push(...dispatch(group, pilot, true));
  }
  if (!state.groups.some((g) => g.state === "running"))
    return [...actions, ...closeStep(state, "exhausted", ctx)];
  refreshStepStats(step.stats, state.groups, step.rewards);
  return actions;
}

function settleGroup(state: StepState, group: GroupRecord, ctx: ProgressContext): BatchAction[] {
  const { step } = state;
  const policy = step.request.dynamicSampling.policy;
  if (group.decision === "failed") {
    finishGroup(group, "dropped", ctx);
    const live = group.members.filter((m) => m.status === "running");
    for (const member of live) member.status = "cancelled";
    for (const member of group.members.filter((m) => m.status === "finished"))
      addWaste(step.stats.waste.infraFailures, member);
    return live.length > 0 ? [{ type: "cancel", jobIds: live.map((m) => m.jobId) }] : [];
  }
  if (!isGroupComplete(group.members)) return [];
  if (group.decision === "uninformative" && policy === "zero-variance") {
    finishGroup(group, "dropped", ctx);
    for (const member of group.members) addWaste(step.stats.waste.zeroVariance, member);
    return [];
  }
  if (step.deliveredSeq >= step.groups) return [];
  const stale = staleMembers(state, group, ctx.weightVersion);
  if (stale.length > 0) {
    const action = step.request.staleness?.action ?? "withhold";
    for (const member of stale) addWaste(step.stats.waste.stale, member);
    if (action === "withhold") {
      for (const member of stale) member.isStale = true;
      step.stats.staleWithheld += stale.length;
      finishGroup(group, "withheld", ctx);
      return [];
    }
    step.stats.staleRegenerated += stale.length;
    for (const member of stale) redispatch(member, ctx.weightVersion, false);
    group.decision = decideGroup(group.members);
    return stale.map((member) => ({ type: "submit", group, member }));
  }
  step.deliveredSeq += 1;
  group.seq = step.deliveredSeq;
  finishGroup(group, "delivered", ctx);
  addDeliveredRewards(
    step.rewards,
    group.members.map((m) => m.reward ?? 0),
    group.members.reduce((sum, m) => sum + m.generatedTokens, 0),
  );
  return [];
}

/**
 * A member's traces are not token-exact and the step takes certified traces only: its group is
 * dropped whole (its members' work counted as `uncertified` waste, not as reward 0 and not as an
 * infrastructure failure), its running members cancelled; the refill starts another group.
 */
function dropUncertifiedGroup(state: StepState, group: GroupRecord, ctx: ProgressContext): BatchAction[] {
  const { step } = state;
  finishGroup(group, "dropped", ctx);
  step.stats.uncertifiedDropped = (step.stats.uncertifiedDropped ?? 0) + 1;
  const live = group.members.filter((m) => m.status === "running");
  for (const member of live) member.status = "cancelled";
  for (const member of group.members.filter((m) => m.status === "finished"))
    addWaste(laterWasteEntry(step.stats, "uncertified"), member);
  const jobIds = live.map((m) => m.jobId).filter((id) => id !== "");
  step.stats.jobsCancelled += jobIds.length;
  return jobIds.length > 0 ? [{ type: "cancel", jobIds }] : [];
}

function staleMembers(state: StepState, group: GroupRecord, weightVersion: number | null): TGroupMember[] {
  const limit = state.step.request.staleness?.maxVersions;
  if (limit === undefined || weightVersion === null) return [];
  return group.members.filter((m) => m.dispatchVersion !== null && weightVersion - m.dispatchVersion > limit);
}

function finishGroup(group: GroupRecord, to: GroupRecord["state"], ctx: ProgressContext): void {
  group.state = to;
  group.finishedAtMs = ctx.nowMs;
}

/** Submits for the members of `group` that may run now (see `membersToDispatch`). */
function dispatch(group: GroupRecord, pilot: number | null, isReleasing: boolean): BatchAction[] {
  return membersToDispatch(group.members, pilot, isReleasing).map((member) => ({
    type: "submit" as const,
    group,
    member,
  }));
}

/**
 * Starts new groups until enough are in flight. Long shots (a pilot that agreed) are not in
 * flight, and carried-in long shots do not count against `maxGroups` (this step did not start
 * them). `isShort`: more groups were wanted than the task source (or `maxGroups`) could give
 * while informative ones are still missing.
 */
function refill(
  state: StepState,
  wanted: number,
  ctx: ProgressContext,
): { actions: BatchAction[]; isShort: boolean } {
  const { step } = state;
  const { policy, overProvision, maxGroups } = step.request.dynamicSampling;
  const pilot = pilotSize(step.request);
  const running = state.groups.filter((g) => g.state === "running");
  const longShots = running.filter((g) => isLongShot(g.members, pilot));
  const stillWanted = wanted - running.filter((g) => g.decision === "informative").length;
  const keep = groupsToKeepInFlight({
    // Pilots keep flowing until the close: an informative group found late is carried whole into
    // the next step rather than left for the capacity to idle while the last groups complete.
    wanted: pilot === null ? stillWanted : step.groups,
    overProvision,
    informative: step.stats.informative,
    decided: step.stats.groupsDecided,
    policy,
    hasPilot: pilot !== null,
  });
  const inFlight =
    policy === "none"
      ? running.length
      : running.filter((g) => g.decision === "undecided").length - longShots.length;
  const carriedLongShots = longShots.filter((g) => g.members.some((m) => m.carriedFromStepId !== null));
  const cap = (maxGroups ?? step.groups * 20) - (state.groups.length - carriedLongShots.length);
  const actions: BatchAction[] = [];
  const toStart = keep - inFlight;
  let started = 0;
  for (; started < Math.min(toStart, cap); started += 1) {
    const task = ctx.drawTask();
    if (!task) break;
    const group = newGroup(state, task, ctx);
    state.groups.push(group);
    actions.push(...dispatch(group, pilot, false));
  }
  // Short only while informative groups are still missing beyond those in flight.
  return { actions, isShort: started < toStart && stillWanted > 0 };
}

/** A new running group of the step for `task`, every slot pending. */
export function newGroup(state: StepState, task: TStepTask, ctx: ProgressContext): GroupRecord {
  return {
    id: ctx.newGroupId(),
    stepId: state.step.id,
    runId: state.run.id,
    taskId: task.taskId,
    kind: task.kind,
    task,
    decision: "undecided",
    state: "running",
    seq: null,
    members: Array.from({ length: state.step.groupSize }, (_, slot) =>
      pendingMember(slot, ctx.weightVersion),
    ),
    createdAtMs: ctx.nowMs,
    decidedAtMs: null,
    finishedAtMs: null,
    carriedIntoGroupId: null,
    expiredInStepId: null,
    version: 0,
  };
}

/**
 * Ends the step: cancels the running jobs of every undecided group and keeps their finished
 * samples for the run's next step (`carried`; a group with none is `cancelled`). Groups already
 * informative are carried whole, their running members going on, unless the step was cancelled
 * or failed: then every running job is cancelled.
 */
export function closeStep(
  state: StepState,
  status: "completed" | "exhausted" | "cancelled" | "failed",
  ctx: ProgressContext,
): BatchAction[] {
  const { step } = state;
  step.status = status;
  step.closedAtMs = ctx.nowMs;
  const jobIds: string[] = [];
  for (const group of state.groups) {
    if (group.state !== "running") continue;
    // An informative group's running members are not redundant: they go on and the next step
    // takes them over (a cancelled or failed step stops everything).
    const stopsAll = status === "cancelled" || status === "failed";
    const keepsRunning = !stopsAll && group.decision === "informative";
    for (const member of group.members) {
      if (member.status !== "running" || (keepsRunning && member.jobId !== "")) continue;
      member.status = "cancelled";
      if (member.jobId !== "") jobIds.push(member.jobId);
    }
    const finished = group.members.filter((m) => m.status === "finished").length;
    const isCarried = finished > 0 || group.members.some((m) => m.status === "running");
    finishGroup(group, isCarried ? "carried" : "cancelled", ctx);
    if (isCarried) step.stats.trajectoriesCarriedOver += finished;
  }
  step.stats.jobsCancelled += jobIds.length;
  refreshStepStats(step.stats, state.groups, step.rewards);
  return jobIds.length > 0 ? [{ type: "cancel", jobIds }] : [];
}

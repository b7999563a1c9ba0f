import type { TGroupMember } from "@raas/shared";
import { decideGroup } from "./group-decision";

type MemberView = Pick<TGroupMember, "status" | "reward" | "jobId" | "slot" | "pastJobIds">;

/** A member waiting to be submitted: running, with no job yet. */
export function isPendingMember(member: Pick<TGroupMember, "status" | "jobId">): boolean {
  return member.status === "running" && member.jobId === "";
}

/**
 * The pilot size in effect for a step (pure): members a new group runs first, or null when every
 * member runs at once (policy `none`, no pilot, or a pilot as large as the group).
 */
export function pilotSize(request: {
  groupSize: number;
  dynamicSampling: { policy: "none" | "zero-variance"; pilot?: number | undefined };
}): number | null {
  const { policy, pilot } = request.dynamicSampling;
  if (policy !== "zero-variance" || pilot === undefined || pilot >= request.groupSize) return null;
  return pilot;
}

/**
 * A long shot (pure): with a pilot, a group whose started members all finished with one reward
 * while others still wait — likely a task always or never solved, so its other members wait for
 * spare work rather than take capacity from fresh groups.
 */
export function isLongShot(members: readonly MemberView[], pilot: number | null): boolean {
  if (pilot === null || !members.some(isPendingMember)) return false;
  if (members.some((m) => m.status === "running" && m.jobId !== "")) return false;
  const finished = members.filter((m) => m.status === "finished").length;
  return finished >= pilot && decideGroup(members) === "undecided";
}

/**
 * Pending members of a group to submit now (pure). Without a pilot: all of them. With one: the
 * pilot's missing members first (re-runs of earlier dispatches before fresh slots); all the rest
 * once two rewards differ (the group is informative); a long shot's rest only when `isReleasing`
 * (the step has nothing fresh to run); nothing while the pilot still runs or when the group failed.
 */
export function membersToDispatch<M extends MemberView>(
  members: readonly M[],
  pilot: number | null,
  isReleasing: boolean,
): M[] {
  const pending = members
    .filter(isPendingMember)
    .sort((a, b) => Number(b.pastJobIds.length > 0) - Number(a.pastJobIds.length > 0) || a.slot - b.slot);
  if (pending.length === 0 || pilot === null) return pending;
  const decision = decideGroup(members);
  if (decision === "informative") return pending;
  if (decision !== "undecided") return [];
  const started = members.length - pending.length;
  if (started < pilot) return pending.slice(0, pilot - started);
  return isReleasing && isLongShot(members, pilot) ? pending : [];
}

/**
 * Priority offset of a member's job (pure): the missing members of a group already informative
 * run one priority above fresh work, so the groups the step will hand out complete first.
 */
export function dispatchPriorityBoost(members: readonly Pick<TGroupMember, "status" | "reward">[]): number {
  return decideGroup(members) === "informative" ? 1 : 0;
}

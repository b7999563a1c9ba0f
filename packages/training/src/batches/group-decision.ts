import type { TGroupDecision, TGroupMember } from "@raas/shared";

type MemberView = Pick<TGroupMember, "status" | "reward">;

/**
 * Decides a group as early as its members allow (pure). `failed`: a member is out of retries;
 * `informative`: two finished members' rewards differ (known before the rest finish);
 * `uninformative`: every member finished with the same reward; otherwise `undecided`.
 */
export function decideGroup(members: readonly MemberView[]): TGroupDecision {
  if (members.some((m) => m.status === "failed" || m.status === "cancelled")) return "failed";
  let first: number | null = null;
  let finished = 0;
  for (const member of members) {
    if (member.status !== "finished") continue;
    finished += 1;
    const reward = member.reward ?? 0;
    if (first === null) first = reward;
    else if (reward !== first) return "informative";
  }
  return finished === members.length && members.length > 0 ? "uninformative" : "undecided";
}

/** True when every member has finished (the group can be handed out). */
export function isGroupComplete(members: readonly MemberView[]): boolean {
  return members.every((m) => m.status === "finished");
}

/**
 * Groups to keep in flight while `wanted` informative groups are still missing: `overProvision`
 * per wanted group, scaled by the informative rate seen so far (Laplace-smoothed, floored at 5 %),
 * so a step whose groups are mostly zero-variance starts more of them at once. With a pilot
 * (`hasPilot`) the rate is not scaled in: a group in flight runs only its pilot, and one whose
 * pilot agrees leaves the flight at once, so refill replaces it without a deeper queue. Pure.
 */
export function groupsToKeepInFlight(input: {
  wanted: number;
  overProvision: number;
  informative: number;
  decided: number;
  policy: "none" | "zero-variance";
  hasPilot?: boolean;
}): number {
  if (input.wanted <= 0) return 0;
  if (input.policy === "none") return input.wanted;
  if (input.hasPilot === true) return Math.ceil(input.wanted * input.overProvision);
  const rate = Math.max(0.05, (input.informative + 1) / (input.decided + 2));
  return Math.ceil((input.wanted * input.overProvision) / Math.min(1, rate * 2));
}

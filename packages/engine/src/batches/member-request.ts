import type { TGroupMember, TSubmitJobRequest } from "@raas/shared";
import type { GroupRecord, StepRecord } from "../ports/batch-store.port";
import { decideGroup } from "./group-decision";

/**
 * The job of one group slot: the task's payload (with the step's `agent` overrides merged in and
 * a seed per sample, so members of a group do not sample alike), keyed by group, slot and
 * dispatch so that a resubmit after a restart returns the same job.
 */
export function memberSubmitRequest(
  step: StepRecord,
  group: GroupRecord,
  member: TGroupMember,
): TSubmitJobRequest {
  const { request } = step;
  const payload: Record<string, unknown> = { ...group.task.payload };
  if (request.agent !== undefined) {
    const inherited = (payload.agent as Record<string, unknown> | undefined) ?? {};
    const agent: Record<string, unknown> = { ...inherited, ...request.agent };
    const base = typeof agent.seed === "number" ? agent.seed : hashSeed(group.id);
    agent.seed = (base + member.slot * 7_919 + member.pastJobIds.length * 104_729) % 2_147_483_647;
    payload.agent = agent;
  }
  return {
    kind: group.task.kind,
    payload,
    jobKey: `${group.id}:${member.slot}:${member.pastJobIds.length}`,
    priority: priorityOf(request.priority, group),
    groupId: group.id,
    batchId: step.id,
    ...(request.timeoutsMs ? { timeoutsMs: request.timeoutsMs } : {}),
    metadata: {
      runId: step.runId,
      stepId: step.id,
      stepIndex: step.index,
      taskId: group.taskId,
      slot: member.slot,
    },
  };
}

/**
 * A carried group still undecided (its finished samples all agree) is a long shot: the more
 * agreeing samples, the likelier its task is always or never solved. Its missing slots run one
 * priority below fresh groups, so they use capacity fresh groups leave free; they are still kept.
 */
function priorityOf(priority: number, group: GroupRecord): number {
  const isCarried = group.members.some((m) => m.carriedFromStepId !== null);
  if (!isCarried || decideGroup(group.members) === "informative") return priority;
  return Math.max(-1_000_000, priority - 1);
}

function hashSeed(text: string): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16_777_619) >>> 0;
  return hash % 1_000_000_007;
}

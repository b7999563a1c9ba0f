import { runShareMetadata } from "@raas/engine";
import { runImageMetadata, type TGroupMember, type TSubmitJobRequest } from "@raas/shared";
import type { GroupRecord, RunRecord, StepRecord } from "../ports/batch-store.port";
import { dispatchPriorityBoost } from "./pilot-dispatch";

/**
 * The job of one group slot: the task's payload (with the step's `agent` overrides merged in and
 * a seed per sample, so members of a group do not sample alike), keyed by group, slot and
 * dispatch so that a resubmit after a restart returns the same job. The step's teacher becomes
 * each payload's `agent.teacher`. The run's priority is added to
 * the step's and its fair share rides in the metadata (`share`, read by the engine's scheduler);
 * the job generates on the run's policy; the run's default image rides there too
 * (`defaultImage`, under the job's own).
 */
export function memberSubmitRequest(
  step: StepRecord,
  group: GroupRecord,
  member: TGroupMember,
  run?: Pick<RunRecord, "share" | "priority" | "maxSandboxes" | "policyId" | "image">,
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
  if (request.teacher !== undefined) {
    const agent = (payload.agent as Record<string, unknown> | undefined) ?? {};
    payload.agent = { ...agent, teacher: request.teacher };
  }
  return {
    kind: group.task.kind,
    payload,
    jobKey: `${group.id}:${member.slot}:${member.pastJobIds.length}`,
    priority: request.priority + (run?.priority ?? 0) + dispatchPriorityBoost(group.members),
    groupId: group.id,
    batchId: step.id,
    ...(run ? { policyId: run.policyId } : {}),
    ...(request.timeoutsMs ? { timeoutsMs: request.timeoutsMs } : {}),
    metadata: {
      runId: step.runId,
      stepId: step.id,
      stepIndex: step.index,
      taskId: group.taskId,
      slot: member.slot,
      ...(run ? runShareMetadata(run) : {}),
      ...(run ? runImageMetadata(run) : {}),
    },
  };
}

function hashSeed(text: string): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16_777_619) >>> 0;
  return hash % 1_000_000_007;
}

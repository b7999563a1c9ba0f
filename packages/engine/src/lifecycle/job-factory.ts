import {
  formatIssues,
  issuesAsDetails,
  newId,
  requestFailure,
  type TSubmitJobParsed,
  ZSubmitJobRequest,
} from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";

/**
 * Parses a submit request with the shared schema; throws `VALIDATION_FAILED` listing each issue
 * with its path under `at` (e.g. `["jobs", 3]` → `jobs[3].priority: …`).
 */
export function parseSubmitRequest(request: unknown, at: readonly PropertyKey[] = []): TSubmitJobParsed {
  const parsed = ZSubmitJobRequest.safeParse(request);
  if (parsed.success) return parsed.data;
  const { issues } = parsed.error;
  throw requestFailure("VALIDATION_FAILED", formatIssues(issues, { prefix: at }), {
    details: { issues: issuesAsDetails(issues, { prefix: at }) },
  });
}

/** A new job record in status `submitted`, owned by `ownerId` (the submitting token's fingerprint, or null). */
export function createJobRecord(
  request: TSubmitJobParsed,
  nowMs: number,
  ownerId: string | null = null,
): JobRecord {
  return {
    id: newId("job", nowMs),
    jobKey: request.jobKey ?? null,
    kind: request.kind,
    status: "submitted",
    stage: null,
    priority: request.priority,
    groupId: request.groupId ?? null,
    batchId: request.batchId ?? null,
    payload: request.payload,
    metadata: request.metadata ?? null,
    ownerId,
    policyId: request.policyId,
    timeoutsMs: request.timeoutsMs ?? null,
    failure: null,
    reward: null,
    trainable: null,
    result: null,
    timings: { queueMs: 0, initMs: null, runMs: null, evalMs: null },
    attempts: 1,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    finishedAtMs: null,
  };
}

import { newId, RaasError, type TSubmitJobParsed, ZSubmitJobRequest } from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";

/** Parses a submit request with the shared schema; throws `VALIDATION_FAILED` with a readable sentence. */
export function parseSubmitRequest(request: unknown, index?: number): TSubmitJobParsed {
  const parsed = ZSubmitJobRequest.safeParse(request);
  if (parsed.success) return parsed.data;
  const where = index === undefined ? "" : `jobs[${index}].`;
  const message = parsed.error.issues
    .map((issue) => `${where}${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  throw new RaasError("VALIDATION_FAILED", message);
}

/** A new job record in status `submitted`. */
export function createJobRecord(request: TSubmitJobParsed, nowMs: number): JobRecord {
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

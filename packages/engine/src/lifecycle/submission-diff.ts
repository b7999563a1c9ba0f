import { SUBMIT_REQUEST_FIELDS, type TJob, type TSubmitJobParsed } from "@raas/shared";

/** JSON with object keys sorted, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * The request fields in which a submit differs from the job already stored under its `jobKey`
 * (kind, payload, priority, groupId, batchId, timeoutsMs, metadata); empty when it is the same
 * request. An omitted optional field equals a stored null.
 */
export function differingSubmitFields(job: TJob, request: TSubmitJobParsed): string[] {
  return SUBMIT_REQUEST_FIELDS.filter(
    (field) => canonical(job[field] ?? null) !== canonical(request[field] ?? null),
  );
}

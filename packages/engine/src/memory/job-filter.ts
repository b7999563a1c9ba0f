import type { TJobListQuery } from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";
import { matchesTrajectoryFilters } from "./trajectory-filter";

/** Whether `job` matches the list filters (not the cursor). Shared by in-memory adapters. */
export function matchesJobFilter(job: JobRecord, query: TJobListQuery): boolean {
  if (query.status !== undefined && job.status !== query.status) return false;
  if (query.stage !== undefined && job.stage !== query.stage) return false;
  if (query.kind !== undefined && job.kind !== query.kind) return false;
  if (query.failureKind !== undefined && job.failure?.kind !== query.failureKind) return false;
  if (query.failureLabel !== undefined && job.failure?.label !== query.failureLabel) return false;
  if (query.groupId !== undefined && job.groupId !== query.groupId) return false;
  if (query.batchId !== undefined && job.batchId !== query.batchId) return false;
  if (query.search !== undefined && query.search !== "") {
    const needle = query.search.toLowerCase();
    const inId = job.id.toLowerCase().includes(needle);
    const inKey = job.jobKey?.toLowerCase().includes(needle) ?? false;
    if (!inId && !inKey) return false;
  }
  return matchesTrajectoryFilters(job, query);
}

import type { TJobListTrajectoryFilters } from "@raas/shared";
import type { JobRecord } from "../ports/job-record.types";

/** Whether `job` matches the run, task and reward-range filters of a job list (metadata labels and reward). */
export function matchesTrajectoryFilters(job: JobRecord, query: TJobListTrajectoryFilters): boolean {
  if (query.runId !== undefined && job.metadata?.runId !== query.runId) return false;
  if (query.taskId !== undefined && job.metadata?.taskId !== query.taskId) return false;
  if (query.minReward !== undefined && (job.reward === null || job.reward < query.minReward)) return false;
  if (query.maxReward !== undefined && (job.reward === null || job.reward > query.maxReward)) return false;
  return true;
}

import type { TJobListTrajectoryFilters } from "@raas/shared";
import type { Prisma } from "../generated/client";

/** The conditions of the run, task and reward-range filters of `listJobs` (ANDed with the rest). */
export function trajectoryFilterWhere(query: TJobListTrajectoryFilters): Prisma.JobWhereInput[] {
  const conditions: Prisma.JobWhereInput[] = [];
  // `run_id` / `task_id` are `metadata.runId` / `metadata.taskId` copied at write time (indexed).
  if (query.runId !== undefined) conditions.push({ runId: query.runId });
  if (query.taskId !== undefined) conditions.push({ taskId: query.taskId });
  if (query.minReward !== undefined) conditions.push({ reward: { gte: query.minReward } });
  if (query.maxReward !== undefined) conditions.push({ reward: { lte: query.maxReward } });
  return conditions;
}

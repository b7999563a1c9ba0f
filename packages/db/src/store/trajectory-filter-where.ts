import type { TJobListTrajectoryFilters } from "@raas/shared";
import type { Prisma } from "../generated/client";

/** The conditions of the run, task and reward-range filters of `listJobs` (ANDed with the rest). */
export function trajectoryFilterWhere(query: TJobListTrajectoryFilters): Prisma.JobWhereInput[] {
  const conditions: Prisma.JobWhereInput[] = [];
  if (query.runId !== undefined) conditions.push({ metadata: { path: ["runId"], equals: query.runId } });
  if (query.taskId !== undefined) conditions.push({ metadata: { path: ["taskId"], equals: query.taskId } });
  if (query.minReward !== undefined) conditions.push({ reward: { gte: query.minReward } });
  if (query.maxReward !== undefined) conditions.push({ reward: { lte: query.maxReward } });
  return conditions;
}

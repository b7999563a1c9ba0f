import { z } from "zod";
import { ZId, zIdString } from "./id.schema";

/**
 * Filters of `jobs.list` that find a training run's trajectories: the labels the batch system
 * stamps into every member job's metadata (`runId`, `taskId`) and a reward range. Kept apart from
 * the job's own columns so the dashboard's trajectory browser needs no second list operation.
 */
export const JOB_LIST_TRAJECTORY_FILTERS = {
  runId: ZId.optional().describe("Only jobs whose metadata names this training run (`metadata.runId`)."),
  taskId: zIdString(200).optional().describe("Only jobs whose metadata names this task (`metadata.taskId`)."),
  minReward: z
    .number({ error: "expected a number" })
    .finite()
    .optional()
    .describe("Only jobs with a reward of at least this (jobs without a reward are left out)."),
  maxReward: z
    .number({ error: "expected a number" })
    .finite()
    .optional()
    .describe("Only jobs with a reward of at most this (jobs without a reward are left out)."),
} as const;

/** The values those filters take once parsed. */
export interface TJobListTrajectoryFilters {
  runId?: string;
  taskId?: string;
  minReward?: number;
  maxReward?: number;
}

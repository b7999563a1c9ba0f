import type { TJob } from "@raas/shared";

/** A task's grade: the reward its job earned, or why it earned none. */
export type EnvironmentTaskGrade =
  | {
      reward: number;
      /** The policy's failure (`agent: …`) when the job failed by its own doing, else null. */
      failure: string | null;
    }
  | { error: string };

/** A reward at or above this resolves a task (Harbor's and verify.py's full marks). */
const RESOLVED_REWARD = 1;

export function isResolvedReward(reward: number): boolean {
  return reward >= RESOLVED_REWARD;
}

/**
 * The grade of a finished environment job. A completed job, or one the policy failed (`agent`:
 * trainable, the handler's failure reward), is graded with its reward; anything else — a sandbox,
 * inference or verifier failure, a time-out, a cancel — earned no reward and is an error, never
 * reward 0 (ARCHITECTURE.md, "Failure kinds").
 */
export function gradeEnvironmentJob(
  job: Pick<TJob, "status" | "reward" | "trainable" | "failure">,
): EnvironmentTaskGrade {
  if (job.trainable === true && typeof job.reward === "number") {
    const { failure } = job;
    return {
      reward: job.reward,
      failure:
        job.status === "completed" || failure === null
          ? null
          : `${failure.kind}${failure.label ? ` (${failure.label})` : ""}: ${failure.message}`,
    };
  }
  const { failure } = job;
  return { error: failure ? `${failure.kind} in ${failure.stage}: ${failure.message}` : job.status };
}

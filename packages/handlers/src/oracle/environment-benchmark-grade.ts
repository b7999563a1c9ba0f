import type { TJob } from "@raas/shared";

/** A task's grade: the reward its job earned, or why it earned none. */
export type EnvironmentTaskGrade =
  | {
      reward: number;
      /** The policy's failure (`agent: …`) when the job failed by its own doing, else null. */
      failure: string | null;
    }
  | { error: string };

/**
 * A reward at or above `least` resolves a task: full marks (1) for Harbor and verify.py, a judge
 * environment's pass threshold (`LoadedEnvironment.oracleMinReward`) for a judge's graded scale.
 */
export function isResolvedReward(reward: number, least = 1): boolean {
  return reward >= least;
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

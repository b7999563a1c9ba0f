import { assertNever, type TFailureKind, type TJob } from "@raas/shared";

/** What `raas submit --wait` reports once every job is terminal. */
export interface SubmitSummary {
  jobs: number;
  completed: number;
  cancelled: number;
  /** Failed jobs by failure kind (cancelled jobs are counted in `cancelled`). */
  failedByKind: Partial<Record<TFailureKind, number>>;
  /** Mean reward over the jobs that have one (completed and `agent` failures); null when none has. */
  meanReward: number | null;
  /** Jobs with a reward. */
  scored: number;
  /** Jobs that failed for infrastructure reasons (timeout, sandbox, inference, eval). */
  infrastructureFailures: number;
}

/** Failure kinds that are not the policy's outcome nor a caller's decision. */
function isInfrastructureFailure(kind: TFailureKind): boolean {
  switch (kind) {
    case "timeout":
    case "sandbox":
    case "inference":
    case "eval":
      return true;
    case "agent":
    case "cancelled":
      return false;
    default:
      return assertNever(kind, "failure kind");
  }
}

/** What the summary reads of a finished job. */
export type FinishedJob = Pick<TJob, "id" | "status" | "failure" | "reward">;

export function summarizeJobs(jobs: readonly FinishedJob[]): SubmitSummary {
  const failedByKind: Partial<Record<TFailureKind, number>> = {};
  let completed = 0;
  let cancelled = 0;
  let infrastructureFailures = 0;
  const rewards: number[] = [];
  for (const job of jobs) {
    if (job.reward !== null) rewards.push(job.reward);
    if (job.status === "completed") completed += 1;
    else if (job.status === "cancelled") cancelled += 1;
    else if (job.status === "failed" && job.failure) {
      failedByKind[job.failure.kind] = (failedByKind[job.failure.kind] ?? 0) + 1;
      if (isInfrastructureFailure(job.failure.kind)) infrastructureFailures += 1;
    }
  }
  const meanReward =
    rewards.length === 0 ? null : rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length;
  return {
    jobs: jobs.length,
    completed,
    cancelled,
    failedByKind,
    meanReward,
    scored: rewards.length,
    infrastructureFailures,
  };
}

/** The summary for people: two or three lines. */
export function formatSummary(summary: SubmitSummary): string {
  const failed = Object.entries(summary.failedByKind);
  const failedCount = failed.reduce((sum, [, count]) => sum + count, 0);
  const failedText = failed.length === 0 ? "" : ` (${failed.map(([kind, n]) => `${kind} ${n}`).join(", ")})`;
  const lines = [
    `${summary.jobs} job(s): ${summary.completed} completed, ${failedCount} failed${failedText}, ${summary.cancelled} cancelled`,
    summary.meanReward === null
      ? "mean reward: - (no job has a reward)"
      : `mean reward: ${summary.meanReward.toFixed(4)} over ${summary.scored} scored job(s)`,
  ];
  if (summary.infrastructureFailures > 0) {
    lines.push(
      `${summary.infrastructureFailures} job(s) failed for infrastructure reasons (not the policy's doing; never trainable) — exit status ${INFRASTRUCTURE_EXIT_CODE}`,
    );
  }
  return lines.join("\n");
}

/** Exit status of `raas submit --wait` when any job failed for infrastructure reasons. */
export const INFRASTRUCTURE_EXIT_CODE = 3;

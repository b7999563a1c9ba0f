import type { TStepFailure, TStepJobFailures, TStepStats } from "@raas/shared";
import type { StepRecord } from "../ports/batch-store.port";

/**
 * The cause a failure is counted under: `kind/stage` of a failed job, with its label when it has
 * one (`sandbox/run/misconfigured`), or `submit`.
 */
type FailureCause = `${string}/${string}` | "submit";

/** The cause a failed job is counted under; its label keeps a broken environment's apart. */
export function jobFailureCause(
  kind: string | null,
  stage: string | null | undefined,
  label: string | null | undefined,
): FailureCause {
  const cause = `${kind ?? "unknown"}/${stage ?? "unknown"}` as const;
  return label ? `${cause}/${label}` : cause;
}

/** Failures a step tolerates before it ends `failed` (its `maxJobFailures`, or derived from m × n). */
export function stepFailureBudget(step: Pick<StepRecord, "request" | "groups" | "groupSize">): number {
  return step.request.maxJobFailures ?? Math.max(16, 2 * step.groups * step.groupSize);
}

/** The step's failure tally (steps stored before it was kept get an empty one). */
function tallyOf(stats: TStepStats): TStepJobFailures {
  stats.jobFailures ??= { jobs: 0, causes: {} };
  return stats.jobFailures;
}

/** Counts one infrastructure failure of a step under `cause`, keeping the cause's latest message. */
export function countJobFailure(stats: TStepStats, cause: FailureCause, message: string): void {
  const tally = tallyOf(stats);
  tally.jobs += 1;
  const known = tally.causes[cause];
  tally.causes[cause] = { jobs: (known?.jobs ?? 0) + 1, lastMessage: message.slice(0, 500) };
}

/** True once the step's failures passed its budget: it must end `failed`. */
export function isOverFailureBudget(
  step: Pick<StepRecord, "request" | "groups" | "groupSize" | "stats">,
): boolean {
  return (step.stats.jobFailures?.jobs ?? 0) > stepFailureBudget(step);
}

/** Why a `failed` step failed, for the trainer (null for any other status). Pure. */
export function stepFailureOf(step: StepRecord): TStepFailure | null {
  if (step.status !== "failed") return null;
  const tally = step.stats.jobFailures ?? { jobs: 0, causes: {} };
  const budget = stepFailureBudget(step);
  let commonest: [string, { jobs: number; lastMessage: string }] | null = null;
  for (const entry of Object.entries(tally.causes))
    if (!commonest || entry[1].jobs > commonest[1].jobs) commonest = entry;
  const [cause, detail] = commonest ?? [null, null];
  const most = cause && detail ? `; most were ${cause} (${detail.jobs}): ${detail.lastMessage}` : "";
  let misconfigured = 0;
  for (const [key, entry] of Object.entries(tally.causes))
    if (key.endsWith("/misconfigured")) misconfigured += entry.jobs;
  const why =
    misconfigured > 0
      ? `for infrastructure reasons or their own configuration (${misconfigured} misconfigured, not re-run: check the environment)`
      : "for infrastructure reasons";
  return {
    reason: "failure-budget",
    message: `step ${step.id} failed: ${tally.jobs} jobs failed ${why}, past its budget of ${budget} (maxJobFailures)${most}. Its jobs were cancelled; fix the cause and create a new step.`,
    jobsFailed: tally.jobs,
    budget,
    commonestCause: cause,
    commonestCauseJobs: detail?.jobs ?? 0,
    commonestMessage: detail?.lastMessage ?? null,
  };
}

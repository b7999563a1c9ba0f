import type { TJobView } from "../trpc/router-types";

export type TTimingKey = "queueMs" | "initMs" | "runMs" | "evalMs";

/**
 * The job's stage timings including the state it is in right now: the server adds a state's
 * time when the job leaves it, so a queued or running job's current segment is `now - updatedAtMs`
 * (its last transition). Returns which segment is still growing, if any.
 */
export function liveTimings(
  job: Pick<TJobView, "status" | "stage" | "timings" | "updatedAtMs">,
  nowMs: number,
): { timings: Record<TTimingKey, number | null>; growing: TTimingKey | null } {
  const timings: Record<TTimingKey, number | null> = { ...job.timings };
  const elapsedMs = Math.max(0, nowMs - job.updatedAtMs);
  if (job.status === "queued") {
    timings.queueMs = (timings.queueMs ?? 0) + elapsedMs;
    return { timings, growing: "queueMs" };
  }
  if (job.status === "active" && job.stage !== null) {
    const key = `${job.stage}Ms` as const;
    timings[key] = (timings[key] ?? 0) + elapsedMs;
    return { timings, growing: key };
  }
  return { timings, growing: null };
}

import type { TJobView } from "../trpc/router-types";

/** The job's status, qualified by its stage while it is queued or running (`queued · init`). */
export function StatusBadge({ job }: { job: Pick<TJobView, "status" | "stage"> }) {
  const isInStage = (job.status === "queued" || job.status === "active") && job.stage !== null;
  return (
    <span className={`status-badge status-${job.status}`} data-testid="status-badge">
      {isInStage ? `${job.status} · ${job.stage}` : job.status}
    </span>
  );
}

/** The trajectory page of a job. */
export function trajectoryHref(jobId: string): string {
  return `/trajectories/${encodeURIComponent(jobId)}`;
}

/** The dashboard's JSONL download of one job's training export (`GET /api/v1/jobs/{jobId}/export`). */
export function exportHref(jobId: string): string {
  return `/trajectories/${encodeURIComponent(jobId)}/export`;
}

import Link from "next/link";
import { failureCell } from "../../lib/failure-text";
import { formatNumber, formatTimestamp } from "../../lib/format";
import type { TJobView } from "../../trpc/router-types";
import { StatusBadge } from "../status-badge";

export function JobRow({ job }: { job: TJobView }) {
  return (
    <tr data-testid="job-row" data-job-id={job.id}>
      <td>
        <Link href={`/jobs/${encodeURIComponent(job.id)}`} className="mono">
          {job.id}
        </Link>
      </td>
      <td className="mono">{job.jobKey ?? "—"}</td>
      <td>{job.kind}</td>
      <td>
        <StatusBadge job={job} />
      </td>
      <td data-testid="job-failure">{failureCell(job.failure)}</td>
      <td>{job.priority}</td>
      <td>{formatNumber(job.reward)}</td>
      <td>{formatTimestamp(job.createdAtMs)}</td>
    </tr>
  );
}

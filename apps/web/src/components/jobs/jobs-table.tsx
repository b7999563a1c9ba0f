import type { TJobView } from "../../trpc/router-types";
import { JobRow } from "./job-row";

/** Jobs newest first; each row links to the job's page. */
export function JobsTable({ jobs }: { jobs: TJobView[] }) {
  return (
    <table className="table" data-testid="jobs-table">
      <thead>
        <tr>
          <th scope="col">job</th>
          <th scope="col">key</th>
          <th scope="col">kind</th>
          <th scope="col">status</th>
          <th scope="col">failure</th>
          <th scope="col">priority</th>
          <th scope="col">reward</th>
          <th scope="col">created</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <JobRow key={job.id} job={job} />
        ))}
      </tbody>
    </table>
  );
}

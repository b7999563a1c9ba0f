"use client";

import { StateMessage } from "@raas/ui/state-message";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isTerminalStatus } from "../../lib/domain";
import { useTRPC } from "../../trpc/trpc-context";
import { ErrorState } from "../error-state";
import { CancelJob } from "./cancel-job";
import { FailurePanel } from "./failure-panel";
import { JobFacts } from "./job-facts";
import { JsonBlock } from "./json-block";
import { StageTimingStrip } from "./stage-timing-strip";
import { TrajectorySection } from "./trajectory-section";
import { useJobUpdates } from "./use-job-updates";

/** Fallback refresh of a running job, in ms, in case the live event stream is interrupted. */
const JOB_REFRESH_MS = 2_000;

/** Everything stored about one job, updated live while it runs. */
export function JobDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const job = useQuery(
    trpc.jobs.get.queryOptions(
      { id },
      {
        refetchInterval: (query) =>
          query.state.data && isTerminalStatus(query.state.data.status) ? false : JOB_REFRESH_MS,
      },
    ),
  );
  useJobUpdates(id, job.data !== undefined && !isTerminalStatus(job.data.status));

  if (job.isPending) return <StateMessage kind="loading" title={`Loading job ${id}…`} />;
  if (!job.data) {
    return (
      <>
        <ErrorState what={`job ${id}`} error={job.error} />
        <p>
          <Link href="/jobs">← Back to all jobs</Link>
        </p>
      </>
    );
  }
  const data = job.data;

  return (
    <div className="job-detail">
      <p>
        <Link href="/jobs">← All jobs</Link>
      </p>
      <div className="job-heading">
        <h1 className="mono" data-testid="job-id">
          {data.id}
        </h1>
        <CancelJob job={data} />
      </div>
      <JobFacts job={data} />
      <StageTimingStrip job={data} />
      <FailurePanel failure={data.failure} />
      <TrajectorySection jobId={data.id} isTerminal={isTerminalStatus(data.status)} />
      <JsonBlock title="Payload" value={data.payload} />
      {data.result !== null ? <JsonBlock title="Evaluation result" value={data.result} /> : null}
      {data.metadata !== null ? <JsonBlock title="Metadata" value={data.metadata} /> : null}
    </div>
  );
}

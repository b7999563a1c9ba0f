import type { ReactNode } from "react";
import { formatDurationMs, formatNumber, formatTimestamp } from "../../lib/format";
import type { TJobView } from "../../trpc/router-types";
import { StatusBadge } from "../status-badge";

/** Status, priority, key, grouping, reward and trainability of a job. */
export function JobFacts({ job }: { job: TJobView }) {
  const finishedInMs = job.finishedAtMs === null ? null : job.finishedAtMs - job.createdAtMs;
  const facts: Array<{ id: string; label: string; value: ReactNode }> = [
    { id: "status", label: "status", value: <StatusBadge job={job} /> },
    { id: "stage", label: "stage", value: job.stage ?? "—" },
    { id: "kind", label: "handler kind", value: job.kind },
    { id: "priority", label: "priority", value: job.priority },
    { id: "key", label: "job key", value: job.jobKey ?? "—" },
    { id: "group", label: "group", value: job.groupId ?? "—" },
    { id: "batch", label: "batch", value: job.batchId ?? "—" },
    { id: "attempts", label: "attempts", value: job.attempts },
    { id: "reward", label: "reward", value: formatNumber(job.reward, 4) },
    {
      id: "trainable",
      label: "trainable",
      value: job.trainable === null ? "not decided yet" : job.trainable ? "yes" : "no",
    },
    { id: "created", label: "created", value: formatTimestamp(job.createdAtMs) },
    {
      id: "finished",
      label: "finished",
      value:
        job.finishedAtMs === null
          ? "—"
          : `${formatTimestamp(job.finishedAtMs)} (after ${formatDurationMs(finishedInMs)})`,
    },
  ];
  return (
    <dl className="facts" data-testid="job-facts">
      {facts.map((fact) => (
        <div key={fact.id}>
          <dt>{fact.label}</dt>
          <dd data-testid={`fact-${fact.id}`}>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

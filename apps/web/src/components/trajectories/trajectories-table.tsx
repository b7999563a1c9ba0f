import { DataTable } from "@raas/ui/data-table";
import Link from "next/link";
import { failureKindCell } from "../../lib/failure-text";
import { formatNumber, formatTimestamp } from "../../lib/format";
import type { TJobListView } from "../../trpc/router-types";
import { runHref, stepHref } from "../runs/run-types";
import { StatusBadge } from "../status-badge";
import { trajectoryHref } from "./trajectory-links";

type TJobRow = TJobListView["items"][number];

/** The batch system's labels on a member job (absent on jobs submitted on their own). */
export function trainingLabels(metadata: TJobRow["metadata"]): {
  runId: string | null;
  stepId: string | null;
  stepIndex: number | null;
  taskId: string | null;
} {
  const read = (key: string) => (typeof metadata?.[key] === "string" ? (metadata[key] as string) : null);
  const stepIndex = metadata?.stepIndex;
  return {
    runId: read("runId"),
    stepId: read("stepId"),
    stepIndex: typeof stepIndex === "number" ? stepIndex : null,
    taskId: read("taskId"),
  };
}

/** One page of trajectories with where each comes from (run, step, group, task) and how it ended. */
export function TrajectoriesTable({
  jobs,
  runNames,
}: {
  jobs: readonly TJobRow[];
  /** Run names by id, to show a name rather than an id where the run is known. */
  runNames: ReadonlyMap<string, string>;
}) {
  return (
    <DataTable
      caption="Trajectories"
      testId="trajectories-table"
      rows={jobs}
      rowKey={(job) => job.id}
      rowTestId={(job) => `trajectory-row-${job.id}`}
      columns={[
        {
          key: "id",
          header: "Trajectory (job)",
          cell: (job) => (
            <Link href={trajectoryHref(job.id)} className="mono" data-testid="trajectory-link">
              {job.id}
            </Link>
          ),
        },
        {
          key: "run",
          header: "Run · step",
          cell: (job) => {
            const labels = trainingLabels(job.metadata);
            if (labels.runId === null) return "—";
            return (
              <>
                <Link
                  href={runHref(labels.runId)}
                  className={runNames.has(labels.runId) ? undefined : "mono"}
                >
                  {runNames.get(labels.runId) ?? labels.runId}
                </Link>
                {labels.stepId !== null ? (
                  <>
                    {" · "}
                    <Link href={stepHref(labels.runId, labels.stepId)}>step {labels.stepIndex ?? "?"}</Link>
                  </>
                ) : null}
              </>
            );
          },
        },
        { key: "task", header: "Task", cell: (job) => trainingLabels(job.metadata).taskId ?? "—" },
        { key: "kind", header: "Kind", cell: (job) => job.kind },
        { key: "status", header: "Status", cell: (job) => <StatusBadge job={job} /> },
        {
          key: "reward",
          header: "Reward",
          isNumeric: true,
          cell: (job) => formatNumber(job.reward, 3),
          cellTestId: (job) => `trajectory-${job.id}-reward`,
        },
        { key: "failure", header: "Failure", cell: (job) => failureKindCell(job.failure) },
        { key: "group", header: "Group", cell: (job) => <span className="mono">{job.groupId ?? "—"}</span> },
        { key: "created", header: "Created", cell: (job) => formatTimestamp(job.createdAtMs) },
      ]}
    />
  );
}

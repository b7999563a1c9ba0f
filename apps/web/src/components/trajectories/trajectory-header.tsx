import { FactList } from "@raas/ui/fact-list";
import Link from "next/link";
import { failureFact } from "../../lib/failure-text";
import { formatNumber } from "../../lib/format";
import type { TJobView } from "../../trpc/router-types";
import { runHref, stepHref } from "../runs/run-types";
import { StatusBadge } from "../status-badge";
import { trainingLabels } from "./trajectories-table";
import styles from "./trajectory.module.css";

/** Where the trajectory comes from (run, step, group, task) and how it ended. */
export function TrajectoryHeader({ job }: { job: TJobView }) {
  const labels = trainingLabels(job.metadata);
  return (
    <FactList
      testId="trajectory-facts"
      facts={[
        { label: "Status", value: <StatusBadge job={job} />, testId: "fact-status" },
        { label: "Handler", value: job.kind, testId: "fact-kind" },
        { label: "Reward", value: formatNumber(job.reward, 3), testId: "fact-reward" },
        {
          label: "Trainable",
          value: job.trainable === null ? "—" : job.trainable ? "yes" : "no",
          testId: "fact-trainable",
        },
        { label: "Failure", value: failureFact(job.failure), testId: "fact-failure" },
        {
          label: "Run",
          value: labels.runId ? (
            <Link href={runHref(labels.runId)} className={`mono ${styles.wrap}`}>
              {labels.runId}
            </Link>
          ) : (
            "—"
          ),
          testId: "fact-run",
        },
        {
          label: "Step",
          value:
            labels.runId && labels.stepId ? (
              <Link href={stepHref(labels.runId, labels.stepId)}>step {labels.stepIndex ?? "?"}</Link>
            ) : (
              (job.batchId ?? "—")
            ),
          testId: "fact-step",
        },
        {
          label: "Group",
          value: job.groupId ? (
            <Link
              href={`/trajectories?groupId=${encodeURIComponent(job.groupId)}`}
              className={`mono ${styles.wrap}`}
            >
              {job.groupId}
            </Link>
          ) : (
            "—"
          ),
        },
        { label: "Task", value: labels.taskId ?? "—", testId: "fact-task" },
      ]}
    />
  );
}

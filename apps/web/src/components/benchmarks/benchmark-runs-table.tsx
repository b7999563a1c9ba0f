import { DataTable } from "@raas/ui/data-table";
import Link from "next/link";
import { compareHref } from "../../lib/charts/benchmark-runs";
import { formatTimestamp } from "../../lib/format";
import type { TBenchmarkRunView } from "./benchmark-types";
import styles from "./benchmarks.module.css";
import {
  DatasetCell,
  meanRewardText,
  RunStatus,
  resolvedCounts,
  resolvedPercent,
  runSize,
} from "./run-cells";

/** `11/30/26, 18:58` in the viewer's locale: the date column stays narrow at 1280 px. */
function formatShortDate(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short", hour12: false });
}

/** Stored runs, newest first, each with a box to pick it for a comparison. */
export function BenchmarkRunsTable({
  runs,
  selected,
  onToggle,
}: {
  runs: readonly TBenchmarkRunView[];
  selected: ReadonlySet<string>;
  onToggle: (runId: string) => void;
}) {
  return (
    <DataTable<TBenchmarkRunView>
      caption="Stored benchmark runs, newest first"
      columns={[
        {
          key: "select",
          header: "compare",
          cell: (run) => (
            <input
              type="checkbox"
              checked={selected.has(run.id)}
              onChange={() => onToggle(run.id)}
              aria-label={`Pick run ${run.id} for the comparison`}
              data-testid={`select-${run.id}`}
            />
          ),
        },
        {
          key: "run",
          header: "run",
          cell: (run) => (
            <Link
              href={compareHref([run.id])}
              className={styles.runId}
              title="Per-instance results of this run"
            >
              {run.id}
            </Link>
          ),
        },
        {
          key: "model",
          header: "model",
          cell: (run) => run.model,
          cellTestId: (run) => `run-model-${run.id}`,
        },
        { key: "size", header: "size", cell: runSize, cellTestId: (run) => `run-size-${run.id}` },
        {
          key: "dataset",
          header: "dataset",
          cell: (run) => <DatasetCell run={run} />,
          cellTestId: (run) => `run-dataset-${run.id}`,
        },
        { key: "status", header: "status", cell: (run) => <RunStatus run={run} /> },
        {
          key: "resolvedCount",
          header: "resolved / graded",
          isNumeric: true,
          cell: resolvedCounts,
          cellTestId: (run) => `run-counts-${run.id}`,
        },
        {
          key: "resolved",
          header: "resolved %",
          isNumeric: true,
          cell: resolvedPercent,
          cellTestId: (run) => `run-resolved-${run.id}`,
        },
        {
          key: "meanReward",
          header: "mean reward",
          isNumeric: true,
          cell: meanRewardText,
          cellTestId: (run) => `run-reward-${run.id}`,
        },
        {
          key: "date",
          header: "date",
          cell: (run) => (
            <time
              dateTime={new Date(run.createdAtMs).toISOString()}
              title={formatTimestamp(run.createdAtMs)}
              className={styles.date}
            >
              {formatShortDate(run.createdAtMs)}
            </time>
          ),
        },
      ]}
      rows={runs}
      rowKey={(run) => run.id}
      rowTestId={(run) => `run-row-${run.id}`}
      testId="benchmark-runs-table"
    />
  );
}

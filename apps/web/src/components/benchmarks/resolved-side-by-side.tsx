import { Badge } from "@raas/ui/badge";
import { BarChart } from "@raas/ui/bar-chart";
import { DataTable } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import { showsSweBench } from "../../lib/charts/benchmark-environment";
import { PUBLISHED_REFERENCE, REFERENCE_SOURCE } from "../../lib/charts/benchmark-reference";
import { resolvedFraction } from "../../lib/charts/benchmark-runs";
import type { TBenchmarkRunView } from "./benchmark-types";
import styles from "./benchmarks.module.css";
import { formatReferencePercent } from "./reference-table";
import {
  DatasetCell,
  meanRewardText,
  RunStatus,
  resolvedCounts,
  resolvedPercent,
  runSize,
} from "./run-cells";

/** A row of the side-by-side table: a compared run, or a published reference figure. */
type TSideRow =
  | { type: "run"; run: TBenchmarkRunView; solvedOnly: number }
  | { type: "reference"; figure: (typeof PUBLISHED_REFERENCE)[number] };

function sideRowKey(row: TSideRow): string {
  return row.type === "run" ? `run:${row.run.id}` : `reference:${row.figure.model}`;
}

/**
 * Resolved % and mean reward of each compared run side by side, then (when a SWE-bench run is
 * among them) the published reference rows, labelled as such.
 */
export function ResolvedSideBySide({
  runs,
  solvedOnlyBy,
}: {
  runs: readonly TBenchmarkRunView[];
  solvedOnlyBy: readonly number[];
}) {
  const isSwe = showsSweBench(runs);
  const rows: TSideRow[] = [
    ...runs.map((run, index): TSideRow => ({ type: "run", run, solvedOnly: solvedOnlyBy[index] ?? 0 })),
    ...(isSwe ? PUBLISHED_REFERENCE.map((figure): TSideRow => ({ type: "reference", figure })) : []),
  ];
  const bars = runs.map((run) => ({
    label: run.model === run.id ? run.id : `${run.model} · ${run.id}`,
    value: Number(((resolvedFraction(run) ?? 0) * 100).toFixed(1)),
  }));
  return (
    <Section
      id="resolved"
      title="Resolved % side by side"
      description={
        isSwe
          ? `Resolved instances over instances with a result, and the mean reward where results carry one, per run. The last rows are published figures (${REFERENCE_SOURCE}, SWE-Bench Verified), not runs of this service.`
          : "Resolved tasks over tasks with a result, and the mean reward over the tasks graded (an error has no reward), per run."
      }
    >
      <DataTable<TSideRow>
        caption={`Resolved % and mean reward per compared run${isSwe ? ", with published reference rows" : ""}`}
        columns={[
          {
            key: "source",
            header: "source",
            cell: (row) =>
              row.type === "run" ? (
                <RunStatus run={row.run} />
              ) : (
                <Badge tone="info" title={REFERENCE_SOURCE}>
                  published reference
                </Badge>
              ),
          },
          {
            key: "run",
            header: "run",
            cell: (row) => (row.type === "run" ? <span className={styles.runId}>{row.run.id}</span> : "—"),
          },
          {
            key: "model",
            header: "model",
            cell: (row) => (row.type === "run" ? row.run.model : row.figure.model),
          },
          {
            key: "size",
            header: "size",
            cell: (row) => (row.type === "run" ? runSize(row.run) : row.figure.size),
          },
          {
            key: "dataset",
            header: "dataset",
            cell: (row) => (row.type === "run" ? <DatasetCell run={row.run} /> : row.figure.dataset),
          },
          {
            key: "counts",
            header: "resolved / graded",
            isNumeric: true,
            cell: (row) => (row.type === "run" ? resolvedCounts(row.run) : "—"),
            cellTestId: (row) => (row.type === "run" ? `compare-counts-${row.run.id}` : ""),
          },
          {
            key: "resolved",
            header: "resolved %",
            isNumeric: true,
            cell: (row) =>
              row.type === "run" ? resolvedPercent(row.run) : formatReferencePercent(row.figure),
            cellTestId: (row) =>
              row.type === "run" ? `compare-resolved-${row.run.id}` : `compare-reference-${row.figure.model}`,
          },
          {
            key: "meanReward",
            header: "mean reward",
            isNumeric: true,
            cell: (row) => (row.type === "run" ? meanRewardText(row.run) : "—"),
            cellTestId: (row) => (row.type === "run" ? `compare-reward-${row.run.id}` : ""),
          },
          {
            key: "only",
            header: "solved by it alone",
            isNumeric: true,
            cell: (row) => (row.type === "run" ? row.solvedOnly : "—"),
            cellTestId: (row) => (row.type === "run" ? `compare-only-${row.run.id}` : ""),
          },
        ]}
        rows={rows}
        rowKey={sideRowKey}
        testId="compare-resolved-table"
      />
      {runs.length > 1 ? (
        <BarChart
          bars={bars}
          valueLabel="resolved %"
          summary={`Resolved %: ${runs.map((run) => `${run.id} ${resolvedPercent(run)}`).join(", ")}.`}
          testId="compare-resolved-chart"
        />
      ) : null}
    </Section>
  );
}

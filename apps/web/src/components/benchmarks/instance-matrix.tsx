import { DataTable, type TDataColumn } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import Link from "next/link";
import { formatReward } from "../../lib/charts/benchmark-environment";
import type { TInstanceMatrix, TMatrixCell, TMatrixRow } from "../../lib/charts/benchmark-matrix";
import type { TBenchmarkRunView } from "./benchmark-types";
import styles from "./benchmarks.module.css";

/** A cell's outcome in words: resolved or not (with the reward where there is one), or an error. */
function cellText(cell: NonNullable<TMatrixCell>): string {
  if (cell.error !== null) return "⚠ error";
  const outcome = cell.resolved ? "✓ resolved" : "✗ unresolved";
  return cell.reward === null ? outcome : `${outcome} · ${formatReward(cell.reward)}`;
}

/** One run's outcome for an instance, in words (colour only repeats them), linking to its job. */
function MatrixCell({ cell, runId, instanceId }: { cell: TMatrixCell; runId: string; instanceId: string }) {
  if (cell === null) return <span className={styles.missing}>no result</span>;
  const text = cellText(cell);
  const className = cell.error !== null ? styles.error : cell.resolved ? styles.resolved : styles.unresolved;
  const title = cell.error ?? undefined;
  if (cell.jobId === null)
    return (
      <span className={className} title={title}>
        {text}
      </span>
    );
  return (
    <Link
      href={`/jobs/${encodeURIComponent(cell.jobId)}`}
      className={className}
      title={title}
      aria-label={`${instanceId} in ${runId}: ${text.slice(2)}; open its trajectory`}
    >
      {text}
    </Link>
  );
}

/** Which run solved which instance: a row per instance, a column per run, each cell linking to its trajectory. */
export function InstanceMatrix({
  runs,
  matrix,
  isSplitOnly,
  hrefFor,
}: {
  runs: readonly TBenchmarkRunView[];
  matrix: TInstanceMatrix;
  isSplitOnly: boolean;
  /** The shareable URL of this comparison with or without the disagreement filter. */
  hrefFor: (isSplitOnly: boolean) => string;
}) {
  const rows = isSplitOnly ? matrix.rows.filter((row) => row.isSplit) : matrix.rows;
  const columns: Array<TDataColumn<TMatrixRow>> = [
    {
      key: "instance",
      header: "instance",
      cell: (row) => <span className="mono">{row.instanceId}</span>,
    },
    ...runs.map(
      (run, index): TDataColumn<TMatrixRow> => ({
        key: `run-${run.id}`,
        header: (
          <span className={styles.runHeader}>
            {run.model}
            <span>{run.id}</span>
          </span>
        ),
        cell: (row) => (
          <MatrixCell cell={row.cells[index] ?? null} runId={run.id} instanceId={row.instanceId} />
        ),
        cellTestId: (row) => `matrix-${run.id}-${row.instanceId}`,
      }),
    ),
    {
      key: "solvedBy",
      header: "solved by",
      isNumeric: true,
      cell: (row) => `${row.solvedBy} of ${runs.length}`,
    },
  ];
  return (
    <Section
      id="matrix"
      title="Per-instance results"
      description="Each cell links to the job (its trajectory, turns and evaluation) when the run stored one, with the task's reward where the result has one. “error” means the job earned no grade (hover for why); “no result” means the run has no result for that instance."
      actions={
        <nav aria-label="Which instances" className={styles.toggle}>
          <Link href={hrefFor(false)} aria-current={isSplitOnly ? undefined : "page"} data-testid="show-all">
            all instances
          </Link>
          <Link href={hrefFor(true)} aria-current={isSplitOnly ? "page" : undefined} data-testid="show-split">
            only where the runs disagree
          </Link>
        </nav>
      }
    >
      <p className={styles.summary} data-testid="matrix-summary">
        {matrix.rows.length} instances · solved by every run: {matrix.solvedByAll} · by none:{" "}
        {matrix.solvedByNone}
        {runs.length > 1 ? ` · disagreements: ${matrix.rows.filter((row) => row.isSplit).length}` : ""}
      </p>
      <DataTable<TMatrixRow>
        caption="Which run resolved which instance"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.instanceId}
        rowTestId={(row) => `matrix-row-${row.instanceId}`}
        testId="instance-matrix"
      />
    </Section>
  );
}

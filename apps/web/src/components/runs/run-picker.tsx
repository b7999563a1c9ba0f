import { Badge } from "@raas/ui/badge";
import { DataTable } from "@raas/ui/data-table";
import Link from "next/link";
import { formatTimestamp } from "../../lib/format";
import { runHref, type TRunView } from "./run-types";

/** Every run in a table; the first column picks the runs overlaid in the charts below. */
export function RunPicker({
  runs,
  selectedIds,
  onToggle,
}: {
  runs: readonly TRunView[];
  selectedIds: readonly string[];
  onToggle: (runId: string, isSelected: boolean) => void;
}) {
  return (
    <DataTable
      caption="Training runs"
      testId="runs-table"
      rows={runs}
      rowKey={(run) => run.id}
      rowTestId={(run) => `run-row-${run.id}`}
      columns={[
        {
          key: "overlay",
          header: "Overlay",
          cell: (run) => (
            <input
              type="checkbox"
              aria-label={`Overlay run ${run.name}`}
              checked={selectedIds.includes(run.id)}
              onChange={(event) => onToggle(run.id, event.target.checked)}
            />
          ),
        },
        {
          key: "name",
          header: "Run",
          cell: (run) => (
            <Link href={runHref(run.id)} data-testid={`run-link-${run.id}`}>
              {run.name}
            </Link>
          ),
        },
        { key: "model", header: "Model", cell: (run) => run.model ?? "—" },
        { key: "dataset", header: "Dataset", cell: (run) => run.dataset ?? "—" },
        {
          key: "status",
          header: "Status",
          cell: (run) => <Badge tone={run.status === "active" ? "info" : "muted"}>{run.status}</Badge>,
        },
        {
          key: "steps",
          header: "Steps",
          isNumeric: true,
          cell: (run) => run.stepCount,
          cellTestId: (run) => `run-${run.id}-steps`,
        },
        { key: "created", header: "Created", cell: (run) => formatTimestamp(run.createdAtMs) },
      ]}
    />
  );
}

import { DataTable } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import { groupLimitHits, type TLimitFamilyRow } from "../../lib/charts/limit-hits";

const FAMILY_LABELS: Record<TLimitFamilyRow["family"], string> = {
  pids: "pids (process count)",
  memory: "memory",
  time: "time (wall clock, CPU)",
  disk: "disk (workspace, file size)",
  other: "other",
};

/** `limit_hit` events by limit family, with the runtime's own kinds beside each total. */
export function LimitHitsTable({ limitHits }: { limitHits: Record<string, number> }) {
  const rows = groupLimitHits(limitHits);
  return (
    <Section
      id="limit-hits"
      title="Limit hits"
      description="Each time a sandbox ran into a limit (one event per limit per tool call); the job's tool saw the error."
    >
      <DataTable
        caption="Limit hits by kind"
        columns={[
          { key: "family", header: "limit", cell: (row) => FAMILY_LABELS[row.family] },
          {
            key: "hits",
            header: "hits",
            isNumeric: true,
            cell: (row) => row.hits,
            cellTestId: (row) => `limit-hits-${row.family}`,
          },
          {
            key: "kinds",
            header: "as reported",
            cell: (row) =>
              row.kinds.length === 0 ? "—" : row.kinds.map((kind) => `${kind.kind} ${kind.hits}`).join(", "),
          },
        ]}
        rows={rows}
        rowKey={(row) => row.family}
        testId="limit-hits-table"
      />
    </Section>
  );
}

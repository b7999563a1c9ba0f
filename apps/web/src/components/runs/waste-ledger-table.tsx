import type { TWasteLedger } from "@raas/shared";
import { DataTable } from "@raas/ui/data-table";
import { WASTE_CATEGORIES } from "../../lib/charts/run-waste";
import { formatNumber } from "../../lib/format";

/** Where a step's rollout work went without reaching the trainer: jobs, rollout-seconds, tokens. */
export function WasteLedgerTable({ waste }: { waste: TWasteLedger }) {
  return (
    <DataTable
      caption="Waste ledger"
      testId="waste-table"
      rows={WASTE_CATEGORIES}
      rowKey={(category) => category.key}
      columns={[
        { key: "what", header: "Spent on", cell: (category) => category.label },
        {
          key: "jobs",
          header: "Trajectories",
          isNumeric: true,
          cell: (category) => waste[category.key].jobs,
          cellTestId: (category) => `waste-${category.key}-jobs`,
        },
        {
          key: "seconds",
          header: "Rollout-seconds",
          isNumeric: true,
          cell: (category) => formatNumber(waste[category.key].rolloutSeconds, 1),
        },
        {
          key: "tokens",
          header: "Generated tokens",
          isNumeric: true,
          cell: (category) => waste[category.key].generatedTokens,
          cellTestId: (category) => `waste-${category.key}-tokens`,
        },
      ]}
    />
  );
}

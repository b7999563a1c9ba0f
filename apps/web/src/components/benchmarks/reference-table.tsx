import { Badge } from "@raas/ui/badge";
import { DataTable } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import {
  PUBLISHED_REFERENCE,
  REFERENCE_SOURCE,
  type TReferenceFigure,
} from "../../lib/charts/benchmark-reference";
import styles from "./benchmarks.module.css";

export function formatReferencePercent(figure: TReferenceFigure): string {
  return figure.baseResolvedPercent === null
    ? `${figure.resolvedPercent.toFixed(1)} %`
    : `${figure.baseResolvedPercent.toFixed(1)} % → ${figure.resolvedPercent.toFixed(1)} %`;
}

/** ProRL Agent's published Table 2, clearly apart from the runs this service stored. */
export function ReferenceTable() {
  return (
    <Section
      id="reference"
      title="Published reference figures (not runs of this service)"
      description={`SWE-Bench Verified resolved % as published in ${REFERENCE_SOURCE}: the base model, then after RL training with ProRL Agent. For orientation only; the fixture instances this service ships are not SWE-Bench Verified.`}
      testId="reference-section"
    >
      <DataTable<TReferenceFigure>
        caption="Published reference figures"
        columns={[
          {
            key: "source",
            header: "source",
            cell: () => (
              <Badge tone="info" title={REFERENCE_SOURCE}>
                published reference
              </Badge>
            ),
          },
          { key: "model", header: "model", cell: (figure) => figure.model },
          { key: "size", header: "size", cell: (figure) => figure.size },
          { key: "dataset", header: "dataset", cell: (figure) => figure.dataset },
          {
            key: "resolved",
            header: "resolved %",
            isNumeric: true,
            cell: (figure) => formatReferencePercent(figure),
            cellTestId: (figure) => `reference-resolved-${figure.model}`,
          },
          { key: "note", header: "what it is", cell: (figure) => figure.note },
        ]}
        rows={PUBLISHED_REFERENCE}
        rowKey={(figure) => figure.model}
        rowTestId={(figure) => `reference-row-${figure.model}`}
        testId="reference-table"
      />
      <p className={styles.referenceNote}>Source: {REFERENCE_SOURCE}.</p>
    </Section>
  );
}

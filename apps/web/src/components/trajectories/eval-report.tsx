import { DataTable } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import { evalReportRows } from "./eval-report-rows";
import styles from "./trajectory.module.css";

/** The evaluation: a per-test FAIL_TO_PASS / PASS_TO_PASS table where the handler reports one, else the result as JSON. */
export function EvalReport({ result }: { result: unknown }) {
  if (result === null || result === undefined) return null;
  const rows = evalReportRows(result);
  const resolved = (result as { resolved?: unknown }).resolved;
  return (
    <Section
      id="evaluation"
      title="Evaluation"
      description={
        rows
          ? `${typeof resolved === "boolean" ? (resolved ? "Resolved. " : "Not resolved. ") : ""}${rows.filter((row) => row.passed).length} of ${rows.length} listed tests passed.`
          : "What the handler's evaluation stored for this trajectory."
      }
      testId="eval-report"
    >
      {rows && rows.length > 0 ? (
        <DataTable
          caption="Tests of the evaluation"
          testId="eval-tests"
          rows={rows}
          rowKey={(row) => `${row.category}:${row.test}`}
          columns={[
            { key: "category", header: "Category", cell: (row) => row.category },
            { key: "test", header: "Test", cell: (row) => <span className="mono">{row.test}</span> },
            {
              key: "outcome",
              header: "Outcome",
              cell: (row) => (
                <span className={row.passed ? styles.pass : styles.fail}>
                  {row.passed ? "passed" : "failed"}
                </span>
              ),
            },
          ]}
        />
      ) : null}
      <details>
        <summary>Full evaluation result (JSON)</summary>
        <pre className="json">{JSON.stringify(result, null, 2)}</pre>
      </details>
    </Section>
  );
}

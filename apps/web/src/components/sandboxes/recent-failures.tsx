import { Badge } from "@raas/ui/badge";
import { DataTable } from "@raas/ui/data-table";
import { EmptyState } from "@raas/ui/empty-state";
import { Section } from "@raas/ui/section";
import Link from "next/link";
import type { TSandboxFailure } from "../../lib/charts/sandbox-failures";
import { formatTimestamp } from "../../lib/format";
import styles from "./sandboxes.module.css";

/** The newest failed sandboxes — crashes, failed starts, closes by a limit — with their reason. */
export function RecentFailures({ failures }: { failures: readonly TSandboxFailure[] }) {
  return (
    <Section
      id="sandbox-failures"
      title="Recent failures"
      description="Crashed sandboxes (cause, exit code, signal, last stderr line), failed starts, and sandboxes closed by a limit; newest first."
    >
      {failures.length === 0 ? (
        <EmptyState title="No failed sandboxes in this window.">
          <p>Crashes, failed starts and limit closes show up here with their reason.</p>
        </EmptyState>
      ) : (
        <DataTable
          caption="Recent sandbox failures"
          columns={[
            { key: "at", header: "when", cell: (row) => formatTimestamp(row.atMs) },
            {
              key: "kind",
              header: "kind",
              cell: (row) => <Badge tone={row.kind === "crashed" ? "bad" : "warn"}>{row.kind}</Badge>,
            },
            {
              key: "reason",
              header: "reason",
              cell: (row) => <span className={styles.reason}>{row.reason}</span>,
            },
            {
              key: "job",
              header: "job",
              cell: (row) =>
                row.jobId ? (
                  <Link href={`/jobs/${encodeURIComponent(row.jobId)}`} className="mono">
                    {row.jobId}
                  </Link>
                ) : (
                  "—"
                ),
            },
            {
              key: "host",
              header: "worker",
              cell: (row) => <span className="mono">{row.hostId ?? "—"}</span>,
            },
            {
              key: "sandbox",
              header: "sandbox",
              cell: (row) => <span className="mono">{row.sandboxId}</span>,
            },
          ]}
          rows={failures}
          rowKey={(row) => row.sandboxId}
          rowTestId={() => "sandbox-failure"}
          testId="sandbox-failures-table"
        />
      )}
    </Section>
  );
}

import { FAILED_KINDS } from "../../lib/domain";
import { formatDurationMs } from "../../lib/format";
import type { TStatsView } from "../../trpc/router-types";

/** Submitted, completed, failed and cancelled totals since the server started, and throughput. */
export function TotalsRow({ stats }: { stats: TStatsView }) {
  const failed = FAILED_KINDS.reduce((sum, kind) => sum + (stats.failedByKind[kind] ?? 0), 0);
  const items = [
    { id: "submitted", label: "submitted", value: String(stats.submitted) },
    { id: "completed", label: "completed", value: String(stats.completed) },
    { id: "failed", label: "failed", value: String(failed) },
    { id: "cancelled", label: "cancelled", value: String(stats.cancelled) },
    {
      id: "throughput",
      label: `jobs/s (last ${formatDurationMs(stats.throughputWindowMs)})`,
      value: stats.throughputPerSec.toFixed(2),
    },
  ];
  return (
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading">Totals</h2>
      <div className="card-row">
        {items.map((item) => (
          <article key={item.id} className="card total-card">
            <p className="big-number" data-testid={`total-${item.id}`}>
              {item.value}
            </p>
            <p className="muted">{item.label}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

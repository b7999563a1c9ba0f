import { BarChart } from "@raas/ui/bar-chart";
import { CardGrid } from "@raas/ui/card-grid";
import { Section } from "@raas/ui/section";
import { StatCard } from "@raas/ui/stat-card";
import { bucketLatencies, percentile } from "../../lib/charts/latency-histogram";
import { formatDurationMs } from "../../lib/format";
import styles from "./sandboxes.module.css";

/** Most `ready` events the histogram reads (the API's list limit). */
export const READY_EVENTS_LIMIT = 1_000;

/**
 * Create → ready time: the mean over every sandbox in the window (from the summary) and the
 * distribution over the newest ready events (at most `READY_EVENTS_LIMIT`).
 */
export function ReadyLatency({
  meanReadyMs,
  readyMs,
}: {
  meanReadyMs: number | null;
  readyMs: readonly number[] | undefined;
}) {
  const values = readyMs ?? [];
  const buckets = bucketLatencies(values);
  const capped = values.length >= READY_EVENTS_LIMIT;
  return (
    <Section
      id="ready-latency"
      title="Create → ready latency"
      description={`Mean over every sandbox in the window; percentiles and histogram over the ${capped ? `newest ${READY_EVENTS_LIMIT}` : values.length} ready event${values.length === 1 ? "" : "s"}.`}
    >
      <CardGrid minWidthPx={140}>
        <StatCard label="mean" value={formatDurationMs(meanReadyMs)} testId="ready-mean" />
        <StatCard label="p50" value={formatDurationMs(percentile(values, 50))} testId="ready-p50" />
        <StatCard label="p90" value={formatDurationMs(percentile(values, 90))} testId="ready-p90" />
        <StatCard label="p99" value={formatDurationMs(percentile(values, 99))} testId="ready-p99" />
        <StatCard label="ready events" value={values.length} testId="ready-count" />
      </CardGrid>
      <div className={styles.spaced}>
        <BarChart
          bars={buckets.map((bucket) => ({ label: bucket.label, value: bucket.count }))}
          valueLabel="sandboxes"
          summary={
            values.length === 0
              ? "No sandbox became ready in this window yet."
              : `Sandboxes per create → ready time: ${buckets
                  .filter((bucket) => bucket.count > 0)
                  .map((bucket) => `${bucket.label}: ${bucket.count}`)
                  .join(", ")}.`
          }
          testId="ready-histogram"
        />
      </div>
    </Section>
  );
}

/** The `readyMs` of each `ready` event (events without it are skipped). */
export function readyMsOf(events: ReadonlyArray<{ detail?: Record<string, unknown> | null }>): number[] {
  return events.flatMap((event) => {
    const value = event.detail?.readyMs;
    return typeof value === "number" && Number.isFinite(value) ? [value] : [];
  });
}

"use client";

import { FilterBar } from "@raas/ui/filter-bar";
import { FilterSelect } from "@raas/ui/filter-select";
import { LineChart } from "@raas/ui/line-chart";
import { Section } from "@raas/ui/section";
import {
  hitRateChart,
  type TBackendSample,
  type THitRateChart,
  type THitRateMode,
} from "../../lib/charts/hit-rate-history";
import { BACKENDS_REFRESH_MS } from "./backend-refresh";
import { HISTORY_SAMPLES } from "./use-backend-history";

function formatTime(atMs: number): string {
  return new Date(atMs).toLocaleTimeString(undefined, { hour12: false });
}

/** The chart's text alternative: what it shows, or why it shows nothing yet and what to do. */
function summaryOf(chart: THitRateChart, samples: number, mode: THitRateMode): string {
  if (samples < 2) return "The chart fills in as the page samples the backends (one point every 2 s).";
  const hasPoint = chart.rows.some((row) => chart.series.some((line) => row[line.key] !== null));
  if (!hasPoint) {
    return mode === "interval"
      ? "No backend got a request while this page was open: points appear as turns run (or show the rate since registration)."
      : "No backend has reported cached prompt tokens yet.";
  }
  const backends = `${chart.series.length} backend${chart.series.length === 1 ? "" : "s"}`;
  return `${backends}, ${samples} samples.`;
}

/** Prefix-cache hit rate over time, one line per backend, from the samples this browser took. */
export function HitRateChart({
  history,
  mode,
  onMode,
}: {
  history: readonly TBackendSample[];
  mode: THitRateMode;
  onMode: (mode: THitRateMode) => void;
}) {
  const chart = hitRateChart(history, mode, formatTime);
  const minutes = Math.round((HISTORY_SAMPLES * BACKENDS_REFRESH_MS) / 60_000);
  return (
    <Section
      id="hit-rate"
      title="Prefix-cache hit rate over time"
      testId="hit-rate-chart"
      description={`Sampled in this browser every ${BACKENDS_REFRESH_MS / 1_000} s from the backends' counters since this page was opened (the last ${minutes} minutes; a reload starts over). Per interval: cached prompt tokens over prompt tokens between two samples, no point while a backend got no requests. Since registration: the backend's running total.`}
      actions={
        <FilterBar legend="Hit rate">
          <FilterSelect
            name="rate"
            label="hit rate"
            anyLabel="per interval"
            value={mode === "cumulative" ? "cumulative" : undefined}
            options={[{ value: "cumulative", label: "since registration" }]}
            onChange={(value) => onMode(value === "cumulative" ? "cumulative" : "interval")}
          />
        </FilterBar>
      }
    >
      <LineChart
        data={chart.rows}
        xKey="time"
        series={chart.series}
        yDomain={[0, 100]}
        formatY={(value) => `${value} %`}
        summary={summaryOf(chart, history.length, mode)}
      />
    </Section>
  );
}

"use client";

import { FilterBar } from "@raas/ui/filter-bar";
import { FilterSelect } from "@raas/ui/filter-select";
import { LineChart } from "@raas/ui/line-chart";
import { Section } from "@raas/ui/section";
import { hitRateChart, type TBackendSample, type THitRateMode } from "../../lib/charts/hit-rate-history";
import { BACKENDS_REFRESH_MS } from "./backend-refresh";
import { HISTORY_SAMPLES } from "./use-backend-history";

function formatTime(atMs: number): string {
  return new Date(atMs).toLocaleTimeString(undefined, { hour12: false });
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
        summary={
          history.length < 2
            ? "The chart fills in as the page samples the backends (one point every 2 s)."
            : `${chart.series.length} backend${chart.series.length === 1 ? "" : "s"}, ${history.length} samples.`
        }
      />
    </Section>
  );
}

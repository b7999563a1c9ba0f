"use client";

import { DataTable } from "@raas/ui/data-table";
import { Section } from "@raas/ui/section";
import { StackedBarChart } from "@raas/ui/stacked-bar-chart";
import { useMemo } from "react";
import { failureBreakdown, type TFailurePair } from "../../lib/charts/overview-failures";
import { formatDurationMs } from "../../lib/format";
import type { TStatsView } from "../../trpc/router-types";

function clockTime(atMs: number): string {
  return new Date(atMs).toLocaleTimeString(undefined, { hour12: false });
}

/** Failures per sample interval, stacked by kind and stage, with the window's totals as a table. */
export function FailureBreakdown({ series }: { series: TStatsView["throughputSeries"] }) {
  const breakdown = useMemo(() => failureBreakdown(series, clockTime), [series]);
  const first = series[0];
  const last = series.at(-1);
  const windowText = first && last ? formatDurationMs(last.atMs - first.atMs) : "the last minutes";
  return (
    <Section
      id="failure-breakdown"
      title="Failures by kind and stage over time"
      description={`Jobs that failed in each interval the server samples, over ${windowText}. Only agent failures are the policy's own fault (trainable); the others are infrastructure.`}
      testId="failure-breakdown"
    >
      {breakdown.pairs.length === 0 ? (
        <p className="muted" data-testid="failure-breakdown-empty">
          No job failed in this window. Failures appear here by kind and stage within a few seconds.
        </p>
      ) : (
        <>
          <StackedBarChart
            data={breakdown.rows}
            xKey="time"
            parts={breakdown.pairs}
            isCount
            summary={`${breakdown.total} failures in the window: ${breakdown.pairs
              .map((pair) => `${pair.count} ${pair.label}`)
              .join(", ")}.`}
            testId="failure-breakdown-chart"
          />
          <DataTable<TFailurePair>
            caption="Failures in the window by kind and stage"
            columns={[
              { key: "kind", header: "kind", cell: (pair) => pair.kind },
              { key: "stage", header: "stage", cell: (pair) => pair.stage.toUpperCase() },
              {
                key: "count",
                header: "failed jobs",
                isNumeric: true,
                cell: (pair) => pair.count,
                cellTestId: (pair) => `failure-count-${pair.key}`,
              },
            ]}
            rows={breakdown.pairs}
            rowKey={(pair) => pair.key}
            testId="failure-breakdown-table"
          />
        </>
      )}
    </Section>
  );
}

"use client";

import {
  Bar,
  CartesianGrid,
  Legend,
  BarChart as RechartsBarChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import styles from "./chart.module.css";
import { CHART_THEME, seriesColor } from "./chart-colors";

/** One stacked part of every bar: the data key it reads and its name in the legend. */
export interface TStackSeries {
  key: string;
  label: string;
}

/**
 * Bars over a shared x axis, each stacked from the series' counts (e.g. failures per interval by
 * kind and stage). The caller shapes the rows (plain, unit-tested functions); a missing value
 * counts as 0. `summary` is the chart's text alternative for screen readers and tests.
 */
export function StackedBarChart({
  data,
  xKey,
  series,
  summary,
  height = 240,
  testId,
}: {
  data: ReadonlyArray<Record<string, string | number>>;
  xKey: string;
  series: readonly TStackSeries[];
  summary: string;
  height?: number;
  testId?: string;
}) {
  return (
    <figure className={styles.box} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <RechartsBarChart data={[...data]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={CHART_THEME.grid} />
          <XAxis dataKey={xKey} minTickGap={40} stroke={CHART_THEME.axis} />
          <YAxis allowDecimals={false} stroke={CHART_THEME.axis} />
          <Tooltip
            cursor={{ fill: "rgba(255,255,255,0.05)" }}
            contentStyle={{ background: CHART_THEME.tooltipBackground, border: CHART_THEME.tooltipBorder }}
          />
          <Legend />
          {series.map((part, index) => (
            <Bar
              key={part.key}
              dataKey={part.key}
              name={part.label}
              stackId="stack"
              fill={seriesColor(index)}
              isAnimationActive={false}
            />
          ))}
        </RechartsBarChart>
      </ResponsiveContainer>
      <figcaption className={styles.caption}>{summary}</figcaption>
    </figure>
  );
}

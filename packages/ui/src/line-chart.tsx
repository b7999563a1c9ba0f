"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart as RechartsLineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import styles from "./chart.module.css";
import { CHART_THEME, seriesColor } from "./chart-colors";

/** One line: the data key it reads and the name in the legend. */
export interface TLineSeries {
  key: string;
  label: string;
}

/**
 * Lines over a shared x axis, one per series; a missing or null value leaves a gap. The data is
 * shaped by the caller (plain, unit-tested functions); this only draws it. `summary` is the
 * chart's text alternative for screen readers and tests.
 */
export function LineChart({
  data,
  xKey,
  series,
  summary,
  height = 260,
  yDomain,
  formatY,
  testId,
}: {
  data: ReadonlyArray<Record<string, string | number | null>>;
  xKey: string;
  series: readonly TLineSeries[];
  summary: string;
  height?: number;
  yDomain?: [number, number];
  formatY?: (value: number) => string;
  testId?: string;
}) {
  return (
    <figure className={styles.box} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <RechartsLineChart data={[...data]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={CHART_THEME.grid} />
          <XAxis dataKey={xKey} minTickGap={40} stroke={CHART_THEME.axis} />
          <YAxis
            stroke={CHART_THEME.axis}
            domain={yDomain ?? ["auto", "auto"]}
            tickFormatter={formatY ? (value: number) => formatY(value) : undefined}
          />
          <Tooltip
            contentStyle={{ background: CHART_THEME.tooltipBackground, border: CHART_THEME.tooltipBorder }}
            formatter={
              formatY ? (value) => (typeof value === "number" ? formatY(value) : String(value)) : undefined
            }
          />
          <Legend />
          {series.map((line, index) => (
            <Line
              key={line.key}
              type="monotone"
              dataKey={line.key}
              name={line.label}
              stroke={seriesColor(index)}
              dot={false}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </RechartsLineChart>
      </ResponsiveContainer>
      <figcaption className={styles.caption}>{summary}</figcaption>
    </figure>
  );
}

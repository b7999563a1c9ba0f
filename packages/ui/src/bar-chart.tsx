"use client";

import {
  Bar,
  CartesianGrid,
  BarChart as RechartsBarChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import styles from "./chart.module.css";
import { CHART_THEME, seriesColor } from "./chart-colors";

/** One bar: its label on the x axis and its height. */
export interface TBar {
  label: string;
  value: number;
}

/**
 * Bars of counts, e.g. a histogram whose labels are bucket ranges. The caller bins the data;
 * `summary` is the text alternative for screen readers and tests.
 */
export function BarChart({
  bars,
  valueLabel,
  summary,
  height = 220,
  colorIndex = 0,
  testId,
}: {
  bars: readonly TBar[];
  valueLabel: string;
  summary: string;
  height?: number;
  colorIndex?: number;
  testId?: string;
}) {
  return (
    <figure className={styles.box} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <RechartsBarChart data={[...bars]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={CHART_THEME.grid} />
          <XAxis dataKey="label" stroke={CHART_THEME.axis} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} stroke={CHART_THEME.axis} />
          <Tooltip
            cursor={{ fill: "rgba(255,255,255,0.05)" }}
            contentStyle={{ background: CHART_THEME.tooltipBackground, border: CHART_THEME.tooltipBorder }}
          />
          <Bar dataKey="value" name={valueLabel} fill={seriesColor(colorIndex)} isAnimationActive={false} />
        </RechartsBarChart>
      </ResponsiveContainer>
      <figcaption className={styles.caption}>{summary}</figcaption>
    </figure>
  );
}

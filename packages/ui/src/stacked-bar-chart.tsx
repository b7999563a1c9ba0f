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

/** One stacked part: the data key it reads and its legend name. */
export interface TStackPart {
  key: string;
  label: string;
}

/**
 * One bar per row made of stacked parts (e.g. where a step's wasted work went). The caller shapes
 * the rows; `summary` is the text alternative for screen readers and tests.
 */
export function StackedBarChart({
  data,
  xKey,
  parts,
  summary,
  height = 220,
  formatY,
  isCount = false,
  testId,
}: {
  data: ReadonlyArray<Record<string, string | number>>;
  xKey: string;
  parts: readonly TStackPart[];
  summary: string;
  height?: number;
  formatY?: (value: number) => string;
  /** Whole numbers only (e.g. failed jobs): the y axis gets integer ticks. Default false. */
  isCount?: boolean;
  testId?: string;
}) {
  return (
    <figure className={styles.box} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <RechartsBarChart data={[...data]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={CHART_THEME.grid} />
          <XAxis dataKey={xKey} stroke={CHART_THEME.axis} />
          <YAxis
            stroke={CHART_THEME.axis}
            allowDecimals={!isCount}
            tickFormatter={formatY ? (value: number) => formatY(value) : undefined}
          />
          <Tooltip
            cursor={{ fill: "rgba(255,255,255,0.05)" }}
            contentStyle={{ background: CHART_THEME.tooltipBackground, border: CHART_THEME.tooltipBorder }}
          />
          <Legend />
          {parts.map((part, index) => (
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

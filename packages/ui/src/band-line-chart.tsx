"use client";

import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import styles from "./chart.module.css";
import { CHART_THEME, seriesColor } from "./chart-colors";

/** One line, and optionally the key of a `[low, high]` band drawn behind it in the same colour. */
export interface TBandSeries {
  key: string;
  label: string;
  bandKey?: string;
}

/**
 * Lines over a shared x axis, each with an optional shaded range (e.g. a mean with its min–max),
 * for overlaying several runs. Null values leave gaps. The caller shapes the data; `summary` is
 * the chart's text alternative for screen readers and tests.
 */
export function BandLineChart({
  data,
  xKey,
  xLabel,
  series,
  summary,
  height = 240,
  yDomain,
  formatY,
  testId,
}: {
  data: ReadonlyArray<Record<string, string | number | [number, number] | null>>;
  xKey: string;
  xLabel?: string;
  series: readonly TBandSeries[];
  summary: string;
  height?: number;
  yDomain?: [number, number];
  formatY?: (value: number) => string;
  testId?: string;
}) {
  const format = (value: unknown): string => {
    if (Array.isArray(value)) return value.map((part) => format(part)).join(" – ");
    if (typeof value === "number") return formatY ? formatY(value) : String(Number(value.toFixed(3)));
    return String(value);
  };
  return (
    <figure className={styles.box} data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <ComposedChart data={[...data]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke={CHART_THEME.grid} />
          <XAxis
            dataKey={xKey}
            stroke={CHART_THEME.axis}
            allowDecimals={false}
            label={
              xLabel
                ? { value: xLabel, position: "insideBottomRight", offset: -4, fill: CHART_THEME.axis }
                : undefined
            }
          />
          <YAxis
            stroke={CHART_THEME.axis}
            domain={yDomain ?? ["auto", "auto"]}
            tickFormatter={formatY ? (value: number) => formatY(value) : undefined}
          />
          <Tooltip
            contentStyle={{ background: CHART_THEME.tooltipBackground, border: CHART_THEME.tooltipBorder }}
            formatter={(value) => format(value)}
          />
          <Legend />
          {series.map((line, index) =>
            line.bandKey ? (
              <Area
                key={line.bandKey}
                type="linear"
                dataKey={line.bandKey}
                name={`${line.label} (min–max)`}
                stroke="none"
                fill={seriesColor(index)}
                fillOpacity={0.18}
                connectNulls={false}
                isAnimationActive={false}
                legendType="none"
              />
            ) : null,
          )}
          {series.map((line, index) => (
            <Line
              key={line.key}
              type="linear"
              dataKey={line.key}
              name={line.label}
              stroke={seriesColor(index)}
              dot={{ r: 3 }}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
      <figcaption className={styles.caption}>{summary}</figcaption>
    </figure>
  );
}

"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TStatsView } from "../../trpc/router-types";

/** Completed and failed jobs per second over the recent samples the server keeps. */
export function ThroughputChart({
  series,
  windowMs,
}: {
  series: TStatsView["throughputSeries"];
  windowMs: number;
}) {
  const points = series.map((sample) => ({
    time: new Date(sample.atMs).toLocaleTimeString(undefined, { hour12: false }),
    completed: Number(sample.completedPerSec.toFixed(3)),
    failed: Number(sample.failedPerSec.toFixed(3)),
  }));
  return (
    <section aria-labelledby="throughput-heading" data-testid="throughput-chart">
      <h2 id="throughput-heading">Throughput (jobs/s)</h2>
      {points.length < 2 ? (
        <p className="muted">
          The chart fills in as the server samples throughput (one point every few seconds).
        </p>
      ) : null}
      <div className="chart-box">
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#2a3140" />
            <XAxis dataKey="time" minTickGap={40} stroke="#8b95a7" />
            <YAxis allowDecimals stroke="#8b95a7" />
            <Tooltip contentStyle={{ background: "#151a23", border: "1px solid #2a3140" }} />
            <Legend />
            <Line
              type="monotone"
              dataKey="completed"
              stroke="#4ade80"
              dot={false}
              isAnimationActive={false}
            />
            <Line type="monotone" dataKey="failed" stroke="#f87171" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <p className="muted">Averaged throughput uses the last {Math.round(windowMs / 1_000)} s.</p>
    </section>
  );
}

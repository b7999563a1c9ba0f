"use client";

import { isTerminalStatus } from "../../lib/domain";
import { formatDurationMs } from "../../lib/format";
import { liveTimings } from "../../lib/live-timings";
import { useNow } from "../../lib/use-now";
import type { TJobView } from "../../trpc/router-types";

const SEGMENTS = [
  { id: "queue", label: "queue", key: "queueMs" },
  { id: "init", label: "INIT", key: "initMs" },
  { id: "run", label: "RUN", key: "runMs" },
  { id: "eval", label: "EVAL", key: "evalMs" },
] as const;

/** Where the job's time went: waiting in stage queues, then INIT, RUN and EVAL, to scale. */
export function StageTimingStrip({ job }: { job: TJobView }) {
  const isRunning = !isTerminalStatus(job.status);
  const nowMs = useNow(500, isRunning);
  const { timings, growing } = liveTimings(job, nowMs);
  const values = SEGMENTS.map((segment) => ({ ...segment, ms: timings[segment.key] }));
  const totalMs = values.reduce((sum, segment) => sum + (segment.ms ?? 0), 0);
  return (
    <section aria-labelledby="timing-heading">
      <h2 id="timing-heading">Stage timing</h2>
      <div className="timing-strip" data-testid="timing-strip">
        {values.map((segment) => (
          <div
            key={segment.id}
            className={`timing-segment timing-${segment.id}`}
            style={{ flexGrow: totalMs > 0 && segment.ms ? segment.ms / totalMs : 0 }}
            title={`${segment.label}: ${formatDurationMs(segment.ms)}`}
          />
        ))}
      </div>
      <ul className="timing-legend">
        {values.map((segment) => (
          <li key={segment.id} data-testid={`timing-${segment.id}`}>
            <span className={`swatch timing-${segment.id}`} />
            {segment.label} {formatDurationMs(segment.ms)}
            {segment.key === growing ? " so far" : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
